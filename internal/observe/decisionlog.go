package observe

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/controller"
	"github.com/mcpc/mcpc/internal/pathscope"
)

// DecisionPath is the decision's path as OPA's decision logs name it (the
// query data.mcpc.main.decision without "data.").
const DecisionPath = "mcpc/main/decision"

// BundleName is the name the embedded or loaded policy bundle goes by in a
// decision event's bundles.
const BundleName = "mcpc"

// DecisionEvent is one decision in OPA's decision-log format
// (https://www.openpolicyagent.org/docs/management-decision-logs), with
// mcpc's work, agent and verb under labels-free extra fields that OPA's
// readers ignore.
type DecisionEvent struct {
	Labels      map[string]string        `json:"labels"`
	DecisionID  string                   `json:"decision_id"`
	Path        string                   `json:"path"`
	Input       json.RawMessage          `json:"input,omitempty"`
	Result      json.RawMessage          `json:"result,omitempty"`
	Erased      []string                 `json:"erased,omitempty"`
	RequestedBy string                   `json:"requested_by"`
	Timestamp   string                   `json:"timestamp"`
	Metrics     map[string]int64         `json:"metrics"`
	Bundles     map[string]bundleVersion `json:"bundles"`
	TraceRef    string                   `json:"trace_ref,omitempty"`
}

type bundleVersion struct {
	Revision string `json:"revision"`
}

func (p *Pipeline) decisionEvent(o *controller.TurnObservation) DecisionEvent {
	ev := DecisionEvent{
		Labels:     map[string]string{"id": p.id, "version": p.opts.Version, "work_id": o.WorkID, "agent_id": o.AgentID, "verb": o.Verb},
		DecisionID: newDecisionID(), Path: DecisionPath, Input: o.Input, Result: o.Result,
		RequestedBy: "mcpc", Timestamp: o.At.UTC().Format(time.RFC3339Nano),
		Metrics: map[string]int64{
			"timer_rego_query_eval_ns": o.EvalTime.Nanoseconds(),
			"timer_server_handler_ns":  o.Duration.Nanoseconds(),
		},
		Bundles: map[string]bundleVersion{BundleName: {Revision: o.PolicyVersion}},
	}
	if o.WorkID != "" && o.Seq > 0 {
		ev.TraceRef = TraceRef(o.WorkID, o.Seq)
	}
	return ev
}

// newDecisionID is a random UUID (version 4), as OPA's decision ids are.
func newDecisionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// decisionLog writes decision events to a rotating JSONL file and, when
// configured, to an HTTP sink. It runs on the pipeline's goroutine only.
type decisionLog struct {
	cfg       config.DecisionLog
	log       zerolog.Logger
	res       *pathscope.Resolver
	canonical string // workspace-relative
	path      string // absolute
	mask      []maskPointer
	sink      *httpSink
	buf       []byte // the batch's lines, written by flush
}

func newDecisionLog(workspace string, cfg config.DecisionLog, log zerolog.Logger) (*decisionLog, error) {
	d := &decisionLog{cfg: cfg, log: log, canonical: filepath.ToSlash(filepath.Clean(cfg.Path))}
	if cfg.Path == "" {
		d.canonical = ".ai/tmp/decision-log.jsonl"
	}
	if filepath.IsAbs(d.canonical) || d.canonical == ".." || strings.HasPrefix(d.canonical, "../") {
		return nil, fmt.Errorf("observe.decisionLog.path %q must be a path inside the workspace", cfg.Path)
	}
	res, err := pathscope.New(workspace)
	if err != nil {
		return nil, err
	}
	d.res, d.path = res, filepath.Join(res.Root(), filepath.FromSlash(d.canonical))
	if d.cfg.MaxBytes <= 0 {
		d.cfg.MaxBytes = 64 << 20
	}
	for _, m := range cfg.Mask {
		mp, err := parsePointer(m)
		if err != nil {
			return nil, err
		}
		d.mask = append(d.mask, mp)
	}
	if cfg.URL != "" {
		d.sink = newHTTPSink(cfg.URL, log)
	}
	return d, nil
}

// write masks the event and appends it to the file (and the sink).
func (d *decisionLog) write(ev DecisionEvent) {
	line, err := d.encode(ev)
	if err != nil {
		d.log.Warn().Err(err).Msg("decision log event not encoded")
		return
	}
	if d.sink != nil {
		d.sink.add(line)
	}
	// Lines wait for the batch's end (flush): one write per batch.
	d.buf = append(append(d.buf, line...), '\n')
}

// encode marshals the event; with a mask the input and result are decoded,
// the masked fields removed and the removed pointers listed in erased.
func (d *decisionLog) encode(ev DecisionEvent) ([]byte, error) {
	if len(d.mask) == 0 {
		// The input and result are compact JSON from the engine already:
		// spliced in rather than marshaled, which would scan them again.
		in, res := ev.Input, ev.Result
		ev.Input, ev.Result = nil, nil
		head, err := json.Marshal(ev)
		if err != nil {
			return nil, err
		}
		line := make([]byte, 0, len(head)+len(in)+len(res)+24)
		line = append(line, head[:len(head)-1]...)
		if len(in) > 0 {
			line = append(append(line, `,"input":`...), in...)
		}
		if len(res) > 0 {
			line = append(append(line, `,"result":`...), res...)
		}
		return append(line, '}'), nil
	}
	doc := map[string]any{}
	var in, res any
	if len(ev.Input) > 0 {
		if err := json.Unmarshal(ev.Input, &in); err != nil {
			return nil, err
		}
	}
	if len(ev.Result) > 0 {
		if err := json.Unmarshal(ev.Result, &res); err != nil {
			return nil, err
		}
	}
	doc["input"], doc["result"] = in, res
	for _, m := range d.mask {
		if m.remove(doc) {
			ev.Erased = append(ev.Erased, m.text)
		}
	}
	ev.Input, _ = json.Marshal(doc["input"])
	ev.Result, _ = json.Marshal(doc["result"])
	return json.Marshal(ev)
}

// append writes a batch of lines. The file is in the repository, where
// anything may have been planted: it is appended through pathscope, never
// through a symlink, and rotated (renamed to .1) when the batch would take
// it past maxBytes. Several processes append to one file; each rotates
// when it finds it full.
func (d *decisionLog) append(lines []byte) error {
	st, err := os.Lstat(d.path)
	switch {
	case err == nil && st.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("%s is a symlink; the decision log is not written through it", d.canonical)
	case err == nil && st.Size() > 0 && st.Size()+int64(len(lines)) > d.cfg.MaxBytes:
		if err := os.Rename(d.path, d.path+".1"); err != nil && !os.IsNotExist(err) {
			return err
		}
	case err != nil && !os.IsNotExist(err):
		return err
	}
	return d.res.AppendFile(d.canonical, lines, true)
}

func (d *decisionLog) flush() {
	if len(d.buf) > 0 {
		if err := d.append(d.buf); err != nil {
			d.log.Warn().Err(err).Str("file", d.path).Msg("decision log not written")
		}
		d.buf = d.buf[:0]
	}
	if d.sink != nil {
		d.sink.kick()
	}
}

func (d *decisionLog) close() {
	d.flush()
	if d.sink != nil {
		d.sink.close()
	}
}

// maskPointer is a JSON pointer into {input, result} (RFC 6901).
type maskPointer struct {
	text  string
	parts []string
}

func parsePointer(s string) (maskPointer, error) {
	if !strings.HasPrefix(s, "/input") && !strings.HasPrefix(s, "/result") {
		return maskPointer{}, fmt.Errorf("observe.decisionLog.mask %q: a pointer must start at /input or /result", s)
	}
	parts := strings.Split(s[1:], "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return maskPointer{text: s, parts: parts}, nil
}

// remove deletes the pointed-at value; it says whether there was one.
func (m maskPointer) remove(doc map[string]any) bool {
	var cur any = doc
	for i, p := range m.parts {
		last := i == len(m.parts)-1
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[p]
			if !ok {
				return false
			}
			if last {
				delete(v, p)
				return true
			}
			cur = next
		case []any:
			idx, err := strconv.Atoi(p)
			if err != nil || idx < 0 || idx >= len(v) {
				return false
			}
			if last {
				v[idx] = nil // arrays keep their length: later indexes stay valid
				return true
			}
			cur = v[idx]
		default:
			return false
		}
	}
	return false
}

// httpSink posts batches of decision events as OPA does to its
// decision-log service: a gzip-compressed JSON array. Batches are posted
// by its own goroutine; a full buffer drops events (logged), a failed
// post is retried once with the next batch.
type httpSink struct {
	url     string
	log     zerolog.Logger
	lines   chan []byte
	wake    chan struct{}
	done    chan struct{}
	client  *http.Client
	dropped int
}

const sinkBuffer = 10000

func newHTTPSink(url string, log zerolog.Logger) *httpSink {
	s := &httpSink{url: url, log: log, lines: make(chan []byte, sinkBuffer), wake: make(chan struct{}, 1),
		done: make(chan struct{}), client: &http.Client{Timeout: 10 * time.Second}}
	go s.run()
	return s
}

func (s *httpSink) add(line []byte) {
	select {
	case s.lines <- line:
	default:
		s.dropped++
	}
}

func (s *httpSink) kick() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *httpSink) close() {
	close(s.lines)
	<-s.done
}

func (s *httpSink) run() {
	defer close(s.done)
	var pending [][]byte
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				s.post(pending)
				return
			}
			pending = append(pending, l)
			if len(pending) < 500 {
				continue
			}
		case <-s.wake:
		case <-tick.C:
		}
		// Take whatever else is buffered, then post.
	more:
		for {
			select {
			case l, ok := <-s.lines:
				if !ok {
					s.post(pending)
					return
				}
				pending = append(pending, l)
			default:
				break more
			}
		}
		if len(pending) > 0 && s.post(pending) {
			pending = pending[:0]
		} else if len(pending) > 2*500 {
			s.log.Warn().Int("events", len(pending)).Msg("decision log sink unreachable; events dropped")
			pending = pending[:0]
		}
	}
}

func (s *httpSink) post(lines [][]byte) bool {
	if len(lines) == 0 {
		return true
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte{'['})
	for i, l := range lines {
		if i > 0 {
			zw.Write([]byte{','})
		}
		zw.Write(l)
	}
	zw.Write([]byte{']'})
	if err := zw.Close(); err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, &buf)
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Content-Encoding", "gzip")
	resp, err := s.client.Do(req)
	if err != nil {
		s.log.Warn().Err(err).Msg("decision log sink post failed")
		return false
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		s.log.Warn().Int("status", resp.StatusCode).Msg("decision log sink refused a batch")
		return false
	}
	return true
}
