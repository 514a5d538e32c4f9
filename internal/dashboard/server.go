// Package dashboard serves mcpc's dashboard: JSON endpoints, Prometheus
// metrics, a Server-Sent Events stream and one HTML page, all read from the
// shared store that every serve process writes. It runs in its own process
// (mcpc dashboard) and never writes the store.
package dashboard

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/observe"
	"github.com/mcpc/mcpc/internal/store"
)

//go:embed index.html
var indexHTML []byte

// Options configures a Server.
type Options struct {
	Store *store.Store
	// Workspace is where memory records are read from (.ai/memory).
	Workspace string
	// Explain explains a stored decision record (the explain-deny code):
	// its outcome and each denial with its rule's documentation.
	Explain func(workID string, record []byte) (any, error)
	Version string
	Log     *zerolog.Logger
	// Poll is how often the event stream looks for new events (default
	// 100ms).
	Poll time.Duration
}

// Server is the dashboard's HTTP handler.
type Server struct {
	opts Options
	log  zerolog.Logger
	mux  *http.ServeMux
}

// New builds the handler. Wrap it in mcp.Guard before serving it.
func New(opts Options) *Server {
	if opts.Poll <= 0 {
		opts.Poll = 100 * time.Millisecond
	}
	s := &Server{opts: opts, log: zerolog.Nop(), mux: http.NewServeMux()}
	if opts.Log != nil {
		s.log = *opts.Log
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collector{st: opts.Store})
	s.mux.HandleFunc("GET /{$}", s.page)
	s.mux.HandleFunc("GET /health", s.health)
	s.mux.HandleFunc("GET /runs", s.runs)
	s.mux.HandleFunc("GET /runs/{workId}", s.run)
	s.mux.HandleFunc("GET /runs/{workId}/turns/{seq}", s.turn)
	s.mux.HandleFunc("GET /trace", s.trace)
	s.mux.HandleFunc("GET /errors", s.errors)
	s.mux.HandleFunc("GET /analytics", s.analytics)
	s.mux.HandleFunc("GET /policies/pending", s.pending)
	s.mux.HandleFunc("GET /events", s.events)
	s.mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}))
	s.mux.HandleFunc("GET /stream/events", s.stream)
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Frame-Options", "DENY")
	s.mux.ServeHTTP(w, r)
}

func (s *Server) page(w http.ResponseWriter, _ *http.Request) {
	// The page fetches nothing but this server's endpoints.
	w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(indexHTML)
}

func (s *Server) writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		s.log.Debug().Err(err).Msg("dashboard answer not written")
	}
}

func (s *Server) fail(w http.ResponseWriter, status int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	last, err := s.opts.Store.LastEventID(r.Context())
	if err != nil {
		s.fail(w, http.StatusServiceUnavailable, err)
		return
	}
	s.writeJSON(w, map[string]any{"status": "ok", "version": s.opts.Version, "lastEventId": last})
}

func (s *Server) runs(w http.ResponseWriter, r *http.Request) {
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	runs, err := s.opts.Store.Runs(r.Context(), limit)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	s.writeJSON(w, map[string]any{"runs": runs})
}

// decisionView is one decision of a work's timeline.
type decisionView struct {
	Seq         int    `json:"seq"`
	At          string `json:"at"`
	Explanation any    `json:"explanation"`
}

func (s *Server) run(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	work := r.PathValue("workId")
	after, _ := strconv.Atoi(r.URL.Query().Get("after"))
	recs, err := s.opts.Store.DecisionRecords(ctx, work, after, 500)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	var summary *store.RunSummary
	if runs, err := s.opts.Store.Runs(ctx, 0); err == nil {
		for i := range runs {
			if runs[i].WorkID == work {
				summary = &runs[i]
			}
		}
	}
	if summary == nil && len(recs) == 0 {
		s.fail(w, http.StatusNotFound, fmt.Errorf("work %s not found", work))
		return
	}
	out := []decisionView{}
	for _, rec := range recs {
		dv, err := s.explain(work, rec)
		if err != nil {
			s.fail(w, http.StatusInternalServerError, err)
			return
		}
		out = append(out, dv)
	}
	s.writeJSON(w, map[string]any{"run": summary, "decisions": out})
}

func (s *Server) explain(work string, rec []byte) (decisionView, error) {
	var head struct {
		Seq int    `json:"seq"`
		At  string `json:"at"`
	}
	if err := json.Unmarshal(rec, &head); err != nil {
		return decisionView{}, err
	}
	ex, err := s.opts.Explain(work, rec)
	return decisionView{Seq: head.Seq, At: head.At, Explanation: ex}, err
}

// turn is a turn's trace: its decision explained, with the turn event's
// duration, cost, violations and stages.
func (s *Server) turn(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	work := r.PathValue("workId")
	seq, err := strconv.Atoi(r.PathValue("seq"))
	if err != nil || seq <= 0 {
		s.fail(w, http.StatusBadRequest, errors.New("seq must be a positive decision number"))
		return
	}
	s.writeTrace(ctx, w, work, seq)
}

func (s *Server) writeTrace(ctx context.Context, w http.ResponseWriter, work string, seq int) {
	rec, err := s.opts.Store.DecisionRecord(ctx, work, seq)
	if errors.Is(err, store.ErrNotFound) {
		s.fail(w, http.StatusNotFound, fmt.Errorf("work %s has no decision %d", work, seq))
		return
	} else if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	dv, err := s.explain(work, rec)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	evs, err := s.opts.Store.TurnEvent(ctx, work, seq)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	out := map[string]any{"workId": work, "seq": seq, "traceRef": observe.TraceRef(work, seq), "decision": dv, "turn": nil}
	if evs != nil {
		out["turn"] = evs
	}
	s.writeJSON(w, out)
}

// trace opens a turn by the traceRef its answer carried.
func (s *Server) trace(w http.ResponseWriter, r *http.Request) {
	work, seq, ok := observe.ParseTraceRef(r.URL.Query().Get("ref"))
	if !ok {
		s.fail(w, http.StatusBadRequest, errors.New("ref must be a traceRef (.ai/tmp/work/ID/decisions/NNNNNN.json)"))
		return
	}
	s.writeTrace(r.Context(), w, work, seq)
}

func (s *Server) errors(w http.ResponseWriter, r *http.Request) {
	evs, err := s.opts.Store.ListEvents(r.Context(), store.EventFilter{Kind: observe.KindTurn, DeniedOnly: true, Limit: 200, Newest: true})
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	s.writeJSON(w, map[string]any{"errors": evs})
}

func (s *Server) analytics(w http.ResponseWriter, r *http.Request) {
	a, err := observe.Analyze(r.Context(), s.opts.Store)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	s.writeJSON(w, a)
}

// events lists events after an id (?after=N&work=ID&limit=N), oldest first.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	after, _ := strconv.ParseInt(q.Get("after"), 10, 64)
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 || limit > 1000 {
		limit = 200
	}
	f := store.EventFilter{AfterID: after, WorkID: q.Get("work"), Kind: q.Get("kind"), Limit: limit}
	if q.Get("newest") != "" {
		f.Newest = true
	}
	evs, err := s.opts.Store.ListEvents(r.Context(), f)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	s.writeJSON(w, map[string]any{"events": evs})
}

// gateWait is a commit gate of an accepted plan no person has approved.
type gateWait struct {
	WorkID       string `json:"workId"`
	NodeID       string `json:"nodeId"`
	CommitGateID string `json:"commitGateId"`
	Status       string `json:"status"`
	Command      string `json:"command"`
}

func (s *Server) pending(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	nodes, err := s.opts.Store.GateNodes(ctx)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	approved, err := s.opts.Store.AllGates(ctx)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	gates := []gateWait{}
	for _, n := range nodes {
		var body struct {
			CommitGateID string `json:"commitGateId"`
		}
		_ = json.Unmarshal(n.Body, &body)
		if body.CommitGateID == "" || contains(approved[n.WorkID], body.CommitGateID) {
			continue
		}
		gates = append(gates, gateWait{WorkID: n.WorkID, NodeID: n.NodeID, CommitGateID: body.CommitGateID, Status: n.Status,
			Command: "mcpc gate approve --work " + n.WorkID + " --gate " + body.CommitGateID})
	}
	a, err := observe.Analyze(ctx, s.opts.Store)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	mem, err := memoryCandidates(s.opts.Workspace)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	s.writeJSON(w, map[string]any{"gates": gates, "memoryCandidates": mem, "pendingCorrections": a.PendingCorrections})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// stream sends new events as Server-Sent Events, polling the store (the
// events come from other processes). Last-Event-ID resumes a stream.
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		s.fail(w, http.StatusInternalServerError, errors.New("streaming is not supported"))
		return
	}
	ctx := r.Context()
	last, err := strconv.ParseInt(strings.TrimSpace(r.Header.Get("Last-Event-ID")), 10, 64)
	if err != nil {
		if last, err = s.opts.Store.LastEventID(ctx); err != nil {
			s.fail(w, http.StatusInternalServerError, err)
			return
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	fmt.Fprintf(w, "retry: 1000\n: mcpc events after %d\n\n", last)
	fl.Flush()
	tick := time.NewTicker(s.opts.Poll)
	defer tick.Stop()
	keepalive := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		evs, err := s.opts.Store.ListEvents(ctx, store.EventFilter{AfterID: last, Limit: 500})
		if err != nil {
			if ctx.Err() == nil {
				s.log.Warn().Err(err).Msg("event stream poll failed")
			}
			continue
		}
		for _, e := range evs {
			data, _ := json.Marshal(e)
			fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", e.ID, sseName(e.Kind), data)
			last = e.ID
		}
		if len(evs) > 0 {
			fl.Flush()
			keepalive = time.Now()
		} else if time.Since(keepalive) > 15*time.Second {
			fmt.Fprint(w, ": keepalive\n\n")
			fl.Flush()
			keepalive = time.Now()
		}
	}
}

// sseName keeps an event kind (which an agent's verb never sets, but a
// row of another writer might) to a safe SSE event name.
func sseName(kind string) string {
	b := []byte(kind)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "event"
	}
	return string(b)
}
