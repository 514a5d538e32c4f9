package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/gcpace"
	"github.com/mcpc/mcpc/internal/mcp"
	"github.com/mcpc/mcpc/internal/pathscope"
)

type serveParams struct {
	*rootParams
	http           string
	bundles        []string
	noWarm         bool
	poll           time.Duration
	idle           time.Duration
	tokenFile      string
	allowedHosts   []string
	allowedOrigins []string
	bundleKey      string
	bundleKeyID    string
	insecureBundle bool
}

func newServeCommand(root *rootParams) *cobra.Command {
	p := &serveParams{rootParams: root}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve controller_turn over MCP (stdio, or streamable HTTP with --http)",
		Long: `Serve the controller_turn tool. By default MCP runs over stdio (newline-delimited
JSON-RPC); every MCP client starts its own mcpc process, and processes on the same
workspace share works through the store under .ai/tmp/. With --http ADDR the
streamable HTTP transport is served at /mcp. A loopback address needs no
credentials; any other address refuses to start without a bearer token
(--http-token-file or MCPC_HTTP_TOKEN), which every request must then carry.
Host and Origin are checked on every address (DNS rebinding protection).

A --bundle URL is used only when its signature verifies against --bundle-key
(OPA bundle signing; mcpc policy build --signing-key writes one), and only
over https unless --allow-insecure-bundle-http; until then, and whenever a
new version is rejected, the last good policy decides (at start the embedded
one) and the log says why.

--bundle may be given several times: a team's data-only domain bundle (e.g.
bundles/adp-to-sdf, roots ["mcpcdomain/adp_sdf"]) is loaded beside the default
one (roots ["mcpc", "data/mcpc"]). OPA's roots keep them apart: bundles whose
roots overlap are refused. With a key configured, every bundle must verify.`,
		RunE: func(cmd *cobra.Command, _ []string) error { return p.run(cmd.Context()) },
	}
	cmd.Flags().StringVar(&p.http, "http", "", "serve streamable HTTP on ADDR (e.g. 127.0.0.1:8723) at /mcp")
	cmd.Flags().StringArrayVar(&p.bundles, "bundle", nil, "OPA bundle (.tar.gz, directory or URL) to decide with; repeat to load several together, each within its .manifest roots (overlapping roots are refused); default the embedded policies")
	cmd.Flags().BoolVar(&p.noWarm, "no-warm", false, "do not refresh the code index at start-up")
	cmd.Flags().DurationVar(&p.poll, "bundle-poll", 30*time.Second, "how often a --bundle path or URL is checked for a new version (MCPC_BUNDLE_POLL_SECONDS overrides)")
	cmd.Flags().StringVar(&p.tokenFile, "http-token-file", "", "file holding the bearer token HTTP clients must send (default: MCPC_HTTP_TOKEN); required beyond loopback")
	cmd.Flags().StringSliceVar(&p.allowedHosts, "http-allowed-host", nil, "Host header names accepted besides loopback names and the bound host (also config http.allowedHosts)")
	cmd.Flags().StringSliceVar(&p.allowedOrigins, "http-allowed-origin", nil, "Origin values accepted besides the server's own (also config http.allowedOrigins)")
	cmd.Flags().StringVar(&p.bundleKey, "bundle-key", "", "PEM public key (or HMAC secret) file bundles must be signed with (config bundles.verification.keyFile); required for a bundle URL")
	cmd.Flags().StringVar(&p.bundleKeyID, "bundle-key-id", "", "key id of --bundle-key (config bundles.verification.keyId; default \"default\")")
	cmd.Flags().BoolVar(&p.insecureBundle, "allow-insecure-bundle-http", false, "DEVELOPMENT ONLY: accept a bundle URL over plain http (config bundles.allowInsecureHttp)")
	cmd.Flags().DurationVar(&p.idle, "http-idle-timeout", 30*time.Minute, "close an HTTP session after this long without a request (0: never); its works go on in a new session")
	return cmd
}

func (p *serveParams) run(ctx context.Context) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	exitAfterGrace()
	log := p.logger()
	if v, err := strconv.Atoi(os.Getenv("MCPC_BUNDLE_POLL_SECONDS")); err == nil && v > 0 {
		p.poll = time.Duration(v) * time.Second
	}
	// A collection that starts during a turn slows that turn and the next
	// few (the read turn's p99): collect in the pauses between turns, and
	// rarely during bursts.
	var token, addr string
	if p.http != "" {
		var err error
		if token, err = mcp.ReadToken(p.tokenFile); err != nil {
			return err
		}
		addr = p.http
		if host, port, err := net.SplitHostPort(addr); err == nil && host == "" {
			addr = net.JoinHostPort("127.0.0.1", port) // loopback unless a host is named
		}
		// Before anything is opened: a server that would serve anyone
		// does not start.
		if err := mcp.ListenCheck(addr, token); err != nil {
			return err
		}
	}
	pacer := gcpace.Configure(gcpace.Options{})
	a, err := app.Open(ctx, app.Options{
		Workspace: p.workspace, Bundles: p.bundles, BundlePoll: p.poll, Log: log, Pause: pacer.Pause,
		BundleKeyFile: p.bundleKey, BundleKeyID: p.bundleKeyID, AllowInsecureBundleHTTP: p.insecureBundle, Version: Version,
		// MCP boots and builds the index (seed 000 §1) without delaying
		// the handshake: Open begins the first refresh, and what the first
		// initialize_work waits for, unless told not to; initialize_work
		// refreshes again before it ranks.
		NoWarm: p.noWarm,
	})
	if err != nil {
		return err
	}
	defer a.Close()
	reportSandboxMode(a.Controller)
	// Before any turn: a node a dead process left half-patched is settled
	// before an agent acts on it.
	if n, err := a.Controller.RecoverPatches(ctx); err != nil {
		log.Warn().Err(err).Msg("patch intents not settled")
	} else if n > 0 {
		log.Info().Int("patches", n).Msg("recorded the patches a previous process applied but did not commit")
	}
	go func() {
		// Decisions a process could not record (the store's lock was not
		// free) and ended before a later transaction did.
		if n, err := a.Controller.RecordAllPending(ctx); err != nil && ctx.Err() == nil {
			log.Warn().Err(err).Msg("pending decisions not recorded")
		} else if n > 0 {
			log.Info().Int("decisions", n).Msg("recorded the decisions a previous process left pending")
		}
		// The restore reads every work's pack from the store and hashes
		// its file (0.04 CPU-s at 160 works, growing with them), and the
		// sweep walks the whole tree: not beside the first refresh's
		// walk, nor beside the first turn, whose ranking the sweep slowed
		// (at 47,870 files 0.25 CPU-s of system calls). A process that
		// ends sooner leaves the sweep to the next.
		wait := func(d time.Duration) bool {
			select {
			case <-time.After(d):
				return true
			case <-ctx.Done():
				return false
			}
		}
		select {
		case <-a.Started():
		case <-ctx.Done():
			return
		}
		if !wait(restoreDelay) {
			return
		}
		// Pack documents and attachments a process committed but died
		// before writing, and the staged writes it left beside files.
		if n, err := a.Controller.RestoreWorkFiles(ctx); err != nil && ctx.Err() == nil {
			log.Warn().Err(err).Msg("work files not restored")
		} else if n > 0 {
			log.Info().Int("files", n).Msg("wrote the pack documents and attachments a previous process left unwritten")
		}
		if !wait(sweepDelay - restoreDelay) {
			return
		}
		if n, err := pathscope.SweepStaged(a.Workspace, staleStaged); err != nil && ctx.Err() == nil {
			log.Warn().Err(err).Msg("staged writes not swept")
		} else if n > 0 {
			log.Info().Int("files", n).Msg("removed the staged writes a previous process left")
		}
		// Files of decisions a process recorded but died before writing.
		if n, err := a.Controller.BackfillRecords(ctx); err != nil && ctx.Err() == nil {
			log.Warn().Err(err).Msg("decision record backfill stopped")
		} else if n > 0 {
			log.Info().Int("records", n).Msg("wrote the decision record files a previous process left unwritten")
		}
	}()
	srv := mcp.NewServer(a.Controller, mcp.Options{Version: Version, Log: *log})
	if p.http == "" {
		return mcp.ServeStdio(ctx, srv)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.HTTPHandler(srv, mcp.HTTPOptions{
		Addr: ln.Addr().String(), Token: token, Idle: p.idle,
		AllowedHosts:   append(append([]string{}, a.Config.HTTP.AllowedHosts...), p.allowedHosts...),
		AllowedOrigins: append(append([]string{}, a.Config.HTTP.AllowedOrigins...), p.allowedOrigins...),
	}))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	return serveUntilDone(ctx, hs, ln, "serving MCP at http://%s/mcp", token != "", 5*time.Second)
}

// serveUntilDone serves hs on ln until ctx ends, then shuts it down within
// grace and closes what is left (an event stream does not end by itself).
// It says on stderr where it listens and whether a token is required.
func serveUntilDone(ctx context.Context, hs *http.Server, ln net.Listener, where string, withToken bool, grace time.Duration) error {
	auth := "no credentials (loopback)"
	if withToken {
		auth = "bearer token required"
	}
	fmt.Fprintf(os.Stderr, "mcpc: "+where+" (%s)\n", ln.Addr(), auth)
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), grace)
		defer cancel()
		_ = hs.Shutdown(sctx)
		hs.Close()
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// shutdownGrace is how long a process that got SIGTERM or an interrupt lets
// in-flight work end on its own before it exits anyway: a turn must not keep
// a process (and the store's write lock) alive past a second. Exiting in a
// transaction is safe: SQLite rolls it back, and a patch written but not
// committed is settled by the next process (RecoverPatches).
const shutdownGrace = 750 * time.Millisecond

// exitAfterGrace exits the process shutdownGrace after the first signal,
// whatever is still running then.
func exitAfterGrace() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		time.Sleep(shutdownGrace)
		fmt.Fprintf(os.Stderr, "mcpc: still running %s after %s; exiting\n", s, shutdownGrace)
		code := 1
		if n, ok := s.(syscall.Signal); ok {
			code = 128 + int(n) // as a shell reports a process the signal ended
		}
		os.Exit(code)
	}()
}

// reportSandboxMode says on stderr, once at start-up, how validation
// commands and side effects run in this process (README: "Sandbox").
func reportSandboxMode(ctl interface{ SandboxMode() (string, string) }) {
	switch mode, reason := ctl.SandboxMode(); mode {
	case "sandboxed":
		fmt.Fprintln(os.Stderr, "mcpc: sandbox: validation commands and side effects run in a bubblewrap sandbox")
	case "unsandboxed":
		fmt.Fprintf(os.Stderr, "mcpc: sandbox: UNSANDBOXED (sandbox.allowUnsandboxed): validation commands and side effects run with mcpc's own authority; %s\n", reason)
	default:
		fmt.Fprintf(os.Stderr, "mcpc: sandbox: unavailable, so validation commands and side effects are refused (SANDBOX_UNAVAILABLE); %s\n", reason)
	}
}

// staleStaged is how old a staged write must be for serve's start-up to
// sweep it: far past any live turn's wait and hold of the store's lock,
// between which a live process publishes or removes its own.
const staleStaged = 10 * time.Minute

// restoreDelay and sweepDelay are how long after the first refresh serve
// restores unwritten pack files and sweeps the staged writes: past a new
// process's first turn (at 47,870 files 1.1-1.5 s after an edit).
const (
	restoreDelay = 2 * time.Second
	sweepDelay   = 10 * time.Second
)
