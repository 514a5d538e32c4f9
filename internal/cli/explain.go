package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/controller"
	"github.com/mcpc/mcpc/internal/engine"
	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/store"
)

type explainParams struct {
	*rootParams
	work     string
	decision int
	input    string
	format   string
	bundle   string
}

func newExplainCommand(root *rootParams) *cobra.Command {
	p := &explainParams{rootParams: root, format: "text"}
	cmd := &cobra.Command{
		Use:   "explain-deny",
		Short: "Explain a recorded decision (the latest denied one by default) or replay an input file",
		Long: `Explain why a turn was denied. With --work ID it reads the work's decision records
(.ai/tmp/work/ID/decisions/NNNNNN.json) and explains the latest denied decision, or
decision N with --decision. With --input FILE it evaluates that input document (a
decision record or a bare input) against the current policies. Either way the
decision is replayed offline and compared with what was recorded.`,
		RunE: func(cmd *cobra.Command, _ []string) error { return p.run(cmd.Context(), cmd.OutOrStdout()) },
	}
	cmd.Flags().StringVar(&p.work, "work", "", "work id whose decisions to read")
	cmd.Flags().IntVar(&p.decision, "decision", 0, "decision number (default: the latest denied)")
	cmd.Flags().StringVar(&p.input, "input", "", "an input document or decision record to evaluate")
	cmd.Flags().StringVar(&p.format, "format", p.format, "text, json or markdown")
	cmd.Flags().StringVar(&p.bundle, "bundle", "", "OPA bundle to replay with; default the embedded policies")
	return cmd
}

// record is a decision record as the controller writes it.
type record struct {
	Seq     int             `json:"seq"`
	At      time.Time       `json:"at"`
	Verb    string          `json:"verb"`
	AgentID string          `json:"agentId"`
	Stage   string          `json:"stage"` // the stage input and result belong to
	Query   string          `json:"query"` // its entrypoint; records before stages: the decision
	Input   json.RawMessage `json:"input"`
	Result  json.RawMessage `json:"result"`
	Stages  []recordedStage `json:"stages"` // the evaluations before it
}

// recordedStage is an earlier evaluation of the same turn.
type recordedStage struct {
	Name   string          `json:"name"`
	Query  string          `json:"query"`
	Input  json.RawMessage `json:"input"`
	Result json.RawMessage `json:"result"`
}

type explained struct {
	Work     string          `json:"work,omitempty"`
	Decision int             `json:"decision,omitempty"`
	Verb     string          `json:"verb"`
	Agent    string          `json:"agentId,omitempty"`
	Allow    bool            `json:"allow"`
	State    string          `json:"state"`
	Denials  []explainedDeny `json:"denials"`
	// Advisories are the decision's warnings (a pack cut short): they
	// never block, and are explained like denials.
	Advisories []explainedDeny `json:"advisories,omitempty"`
	Replay     string          `json:"replay"`
	Suggest    map[string]any  `json:"suggestedAction,omitempty"`
	// Stages lists every evaluation of the turn in order, the explained
	// one (the decision the turn answered) last.
	Stages []explainedStage `json:"stages"`
}

// explainedStage is one stage of a turn: its entrypoint, what it decided
// and which codes it denied with.
type explainedStage struct {
	Name    string   `json:"name"`
	Query   string   `json:"query"`
	Allow   bool     `json:"allow"`
	Denials []string `json:"denials"`
	Replay  string   `json:"replay"`
}

// explainedDeny is a recorded denial with its rule's documentation and the
// input value its path points at.
type explainedDeny struct {
	protocol.Denial
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Value       any    `json:"value,omitempty"`
}

type recordedDecision struct {
	Allow           bool              `json:"allow"`
	State           string            `json:"state"`
	Denials         []protocol.Denial `json:"denials"`
	Advisories      []protocol.Denial `json:"advisories"`
	SuggestedAction map[string]any    `json:"suggestedAction"`
}

func (p *explainParams) run(ctx context.Context, w io.Writer) error {
	if (p.work == "") == (p.input == "") {
		return fmt.Errorf("give exactly one of --work ID or --input FILE")
	}
	rec, err := p.load()
	if err != nil {
		return err
	}
	// serve compiles the workspace's repository-local rules with the bundle;
	// a replay does too, or it would judge with other policies.
	eng, err := engine.New(ctx, engine.Options{BundlePath: p.bundle, LocalDir: filepath.Join(p.workspace, ".ai", "policies")})
	if err != nil {
		return err
	}
	out := explained{Work: p.work, Decision: rec.Seq, Verb: rec.Verb, Agent: rec.AgentID, Stages: []explainedStage{}}
	for _, st := range rec.Stages {
		var decided recordedDecision
		replay, _ := replayStage(ctx, eng, st.Query, st.Input, st.Result, &decided)
		out.Stages = append(out.Stages, explainedStage{Name: st.Name, Query: st.Query, Allow: decided.Allow, Denials: denialCodes(decided), Replay: replay})
	}
	var recorded recordedDecision
	out.Replay, recorded = replayStage(ctx, eng, rec.Query, rec.Input, rec.Result, &recorded)
	out.Stages = append(out.Stages, explainedStage{Name: orDefault(rec.Stage, "verb"), Query: orDefault(rec.Query, engine.DecisionQuery),
		Allow: recorded.Allow, Denials: denialCodes(recorded), Replay: out.Replay})
	explainDenials(&out, eng.RuleDocs(), rec, recorded)
	switch p.format {
	case "json":
		return writeJSON(w, out)
	case "markdown":
		return renderExplanation(w, out, true)
	case "text":
		return renderExplanation(w, out, false)
	}
	return fmt.Errorf("--format must be text, json or markdown")
}

// explainDenials fills out's outcome and its denials, each with its rule's
// documentation and the input value its path points at. The dashboard
// explains recorded decisions with it too (explainRecord).
func explainDenials(out *explained, docs map[string]engine.RuleDoc, rec *record, recorded recordedDecision) {
	out.Allow, out.State, out.Suggest = recorded.Allow, recorded.State, recorded.SuggestedAction
	var input map[string]any
	_ = json.Unmarshal(rec.Input, &input)
	if out.Verb == "" {
		out.Verb, _ = input["verb"].(string)
	}
	explain := func(d protocol.Denial) explainedDeny {
		ed := explainedDeny{Denial: d}
		if doc, ok := docs[ed.Rule]; ok {
			ed.Title, ed.Description = doc.Title, doc.Description
		}
		ed.Value = lookupPath(input, ed.Path)
		return ed
	}
	for _, d := range recorded.Denials {
		out.Denials = append(out.Denials, explain(d))
	}
	for _, d := range recorded.Advisories {
		out.Advisories = append(out.Advisories, explain(d))
	}
}

// explainRecord explains a stored decision record as recorded (no replay).
func explainRecord(docs map[string]engine.RuleDoc, workID string, raw []byte) (any, error) {
	rec := &record{}
	if err := json.Unmarshal(raw, rec); err != nil {
		return nil, err
	}
	var recorded recordedDecision
	if len(rec.Result) > 0 && string(rec.Result) != "null" {
		if err := json.Unmarshal(rec.Result, &recorded); err != nil {
			return nil, err
		}
	}
	out := explained{Work: workID, Decision: rec.Seq, Verb: rec.Verb, Agent: rec.AgentID, Replay: "as recorded", Denials: []explainedDeny{}}
	explainDenials(&out, docs, rec, recorded)
	return out, nil
}

// replayStage evaluates a recorded stage's input with the current policies
// under the stage's own entrypoint, and compares with what was recorded. It
// returns the comparison and the recorded decision (the replayed one when
// none was recorded).
func replayStage(ctx context.Context, eng *engine.Engine, query string, input, result json.RawMessage, recorded *recordedDecision) (string, recordedDecision) {
	var replayed recordedDecision
	evaluate := eng.Evaluate
	if query == engine.Stage1Query {
		evaluate = eng.EvaluateStage1
	}
	_, replayRaw, evalErr := evaluate(ctx, input, &replayed)
	haveRecorded := len(result) > 0 && string(result) != "null" && json.Unmarshal(result, recorded) == nil
	switch {
	case evalErr != nil:
		return "the current policies fail on this input: " + evalErr.Error(), *recorded
	case !haveRecorded:
		return "evaluated with the current policies (no recorded result to compare)", replayed
	}
	var a, b any
	_ = json.Unmarshal(result, &a)
	_ = json.Unmarshal(replayRaw, &b)
	if reflect.DeepEqual(a, b) {
		return "replayed offline: the current policies give the same decision", *recorded
	}
	return "replayed offline: the current policies decide differently now (allow=" + fmt.Sprint(replayed.Allow) + ", " + fmt.Sprint(len(replayed.Denials)) + " denials)", *recorded
}

func denialCodes(d recordedDecision) []string {
	codes := []string{}
	for _, dn := range d.Denials {
		codes = append(codes, dn.Code)
	}
	return codes
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// load finds the record to explain.
func (p *explainParams) load() (*record, error) {
	if p.input != "" {
		raw, err := os.ReadFile(p.input)
		if err != nil {
			return nil, err
		}
		rec := &record{}
		if err := json.Unmarshal(raw, rec); err != nil {
			return nil, fmt.Errorf("%s: %w", p.input, err)
		}
		if len(rec.Input) == 0 { // a bare input document
			rec = &record{Input: raw}
		}
		return rec, nil
	}
	if strings.ContainsAny(p.work, `/\`) || strings.Contains(p.work, "..") {
		return nil, fmt.Errorf("--work %q is not a work id", p.work)
	}
	st, err := store.Open(filepath.Join(p.workspace, app.StorePath))
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var raw []byte
	err = st.View(context.Background(), func(tx *store.Tx) error {
		var err error
		raw, err = tx.Decision(context.Background(), p.work, p.decision)
		return err
	})
	var rec *record
	switch {
	case errors.Is(err, store.ErrNotFound) && p.decision != 0:
		return nil, fmt.Errorf("work %s has no decision %d", p.work, p.decision)
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return nil, err
	default:
		rec = &record{}
		if err := json.Unmarshal(raw, rec); err != nil {
			return nil, err
		}
	}
	if p.decision == 0 {
		// A denial made while the store's lock was not free waits in the
		// work's pending-decisions folder until a later transaction
		// records it: the latest denial may be one of those.
		if pending := p.latestPending(); pending != nil && (rec == nil || pending.At.After(rec.At)) {
			rec = pending
		}
	}
	if rec == nil {
		return nil, fmt.Errorf("work %s has no denied decision", p.work)
	}
	return rec, nil
}

// latestPending is the newest of the work's decisions not recorded yet
// (.ai/tmp/work/ID/pending-decisions/), nil when there is none.
func (p *explainParams) latestPending() *record {
	dir := filepath.Join(p.workspace, filepath.FromSlash(controller.PendingDir(p.work)))
	names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	slices.Sort(names) // named by time
	for i := len(names) - 1; i >= 0; i-- {
		raw, err := os.ReadFile(names[i])
		if err != nil {
			continue
		}
		var pending struct {
			Denied bool            `json:"denied"`
			Record json.RawMessage `json:"record"`
		}
		rec := &record{}
		if json.Unmarshal(raw, &pending) != nil || !pending.Denied || json.Unmarshal(pending.Record, rec) != nil {
			continue
		}
		return rec
	}
	return nil
}

// lookupPath follows a denial path like args.planGraph.nodes[3].codeEvidence
// into the input so the explanation can show the offending value.
func lookupPath(doc any, path string) any {
	if path == "" {
		return nil
	}
	// The plan is carried once, as input.submission (docs/policy-input.md).
	if rest, ok := strings.CutPrefix(path, "args.planGraph"); ok {
		path = "submission" + rest
	}
	cur := doc
	for _, part := range strings.Split(strings.ReplaceAll(path, "[", ".["), ".") {
		if part == "" {
			continue
		}
		if strings.HasPrefix(part, "[") {
			var i int
			if _, err := fmt.Sscanf(part, "[%d]", &i); err != nil {
				return nil
			}
			list, ok := cur.([]any)
			if !ok || i < 0 || i >= len(list) {
				return nil
			}
			cur = list[i]
			continue
		}
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	return cur
}

func renderExplanation(w io.Writer, e explained, md bool) error {
	h := func(s string) string {
		if md {
			return "## " + s
		}
		return s
	}
	fmt.Fprintln(w, h(fmt.Sprintf("Decision %d of %s: %s by %s", e.Decision, orDash(e.Work), e.Verb, orDash(e.Agent))))
	fmt.Fprintf(w, "allowed: %v   state: %s\n", e.Allow, e.State)
	fmt.Fprintf(w, "%s\n", e.Replay)
	if len(e.Stages) > 0 {
		fmt.Fprintln(w, "stages:")
		for i, st := range e.Stages {
			verdict := "allowed"
			if !st.Allow {
				verdict = "denied " + strings.Join(st.Denials, ", ")
			}
			fmt.Fprintf(w, "  %d. %s (%s): %s; %s\n", i+1, st.Name, st.Query, verdict, st.Replay)
		}
	}
	for i, d := range e.Denials {
		fmt.Fprintln(w)
		if md {
			fmt.Fprintf(w, "### %d. `%s` — %s\n\n", i+1, d.Code, d.Message)
			fmt.Fprintf(w, "- rule: `%s`%s\n- where: `%s`\n- severity: %s\n- fix: %s\n", d.Rule, titled(d.Title), orDash(d.Path), d.Severity, d.Remediation)
			if d.Description != "" {
				fmt.Fprintf(w, "- why: %s\n", d.Description)
			}
			if d.Value != nil {
				v, _ := json.Marshal(d.Value)
				fmt.Fprintf(w, "- value: `%s`\n", clip(string(v), 300))
			}
			continue
		}
		fmt.Fprintf(w, "%d. %s: %s\n   rule:  %s%s\n   where: %s\n   fix:   %s\n", i+1, d.Code, d.Message, d.Rule, titled(d.Title), orDash(d.Path), d.Remediation)
		if d.Description != "" {
			fmt.Fprintf(w, "   why:   %s\n", d.Description)
		}
		if d.Value != nil {
			v, _ := json.Marshal(d.Value)
			fmt.Fprintf(w, "   value: %s\n", clip(string(v), 300))
		}
	}
	for _, d := range e.Advisories {
		fmt.Fprintf(w, "\nadvisory %s: %s\n   rule:  %s%s\n   where: %s\n   fix:   %s\n", d.Code, d.Message, d.Rule, titled(d.Title), orDash(d.Path), d.Remediation)
	}
	if s := e.Suggest; s != nil {
		fmt.Fprintf(w, "\nsuggested next: %v (%v)\n", s["verb"], s["reason"])
	}
	return nil
}

func titled(t string) string {
	if t == "" {
		return ""
	}
	return " (" + t + ")"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
