package cli

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/dashboard"
	"github.com/mcpc/mcpc/internal/engine"
	"github.com/mcpc/mcpc/internal/mcp"
	"github.com/mcpc/mcpc/internal/store"
)

type dashboardParams struct {
	*rootParams
	addr           string
	tokenFile      string
	allowedHosts   []string
	allowedOrigins []string
	bundle         string
}

func newDashboardCommand(root *rootParams) *cobra.Command {
	p := &dashboardParams{rootParams: root, addr: "127.0.0.1:8722"}
	cmd := &cobra.Command{
		Use:   "dashboard",
		Short: "Serve the live dashboard (JSON, Prometheus metrics, an event stream and a page) from the shared store",
		Long: `Serve what every agent's serve process records in the workspace's store: /health,
/runs, /runs/{workId} (decisions with their explanations), /runs/{workId}/turns/{seq}
and /trace?ref=TRACEREF (one turn's trace), /errors, /analytics, /policies/pending,
/metrics (Prometheus text), /stream/events (Server-Sent Events) and a page at /.
It runs in its own process and only reads the store. A loopback address needs no
credentials; any other address refuses to start without a bearer token
(--http-token-file or MCPC_HTTP_TOKEN), and Host and Origin are checked as for
serve --http.`,
		RunE: func(cmd *cobra.Command, _ []string) error { return p.run(cmd.Context()) },
	}
	cmd.Flags().StringVar(&p.addr, "addr", p.addr, "address to listen on")
	cmd.Flags().StringVar(&p.tokenFile, "http-token-file", "", "file holding the bearer token requests must send (default: MCPC_HTTP_TOKEN); required beyond loopback")
	cmd.Flags().StringSliceVar(&p.allowedHosts, "http-allowed-host", nil, "Host header names accepted besides loopback names and the bound host (also config http.allowedHosts)")
	cmd.Flags().StringSliceVar(&p.allowedOrigins, "http-allowed-origin", nil, "Origin values accepted besides the dashboard's own (also config http.allowedOrigins)")
	cmd.Flags().StringVar(&p.bundle, "bundle", "", "OPA bundle whose rule documentation explains denials; default the embedded policies")
	return cmd
}

func (p *dashboardParams) run(ctx context.Context) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := p.logger()
	token, err := mcp.ReadToken(p.tokenFile)
	if err != nil {
		return err
	}
	addr := p.addr
	if host, port, err := net.SplitHostPort(addr); err == nil && host == "" {
		addr = net.JoinHostPort("127.0.0.1", port)
	}
	if err := mcp.ListenCheck(addr, token); err != nil {
		return err
	}
	ws, err := filepath.Abs(p.workspace)
	if err != nil {
		return err
	}
	cfg, err := config.Load(ws)
	if err != nil {
		return err
	}
	eng, err := engine.New(ctx, engine.Options{BundlePath: p.bundle})
	if err != nil {
		return err
	}
	docs := eng.RuleDocs()
	st, err := store.Open(filepath.Join(ws, app.StorePath))
	if err != nil {
		return err
	}
	defer st.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := dashboard.New(dashboard.Options{
		Store: st, Workspace: ws, Version: Version, Log: log,
		Explain: func(work string, rec []byte) (any, error) { return explainRecord(docs, work, rec) },
	})
	h := mcp.Guard(mcp.HTTPOptions{
		Addr: ln.Addr().String(), Token: token,
		AllowedHosts:   append(append([]string{}, cfg.HTTP.AllowedHosts...), p.allowedHosts...),
		AllowedOrigins: append(append([]string{}, cfg.HTTP.AllowedOrigins...), p.allowedOrigins...),
	}, srv)
	// Requests end with the process: an event stream would otherwise hold
	// Shutdown until its timeout.
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	return serveUntilDone(ctx, hs, ln, "dashboard at http://%s/", token != "", 2*time.Second)
}
