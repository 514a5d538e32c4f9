// Package demo is a scripted agent: it drives a real mcpc server through a
// whole piece of work (the adp-alert to sdf-alert migration of the bundled
// angular-shop example), printing each turn. `mcpc demo` runs it so a new
// user sees the lifecycle, denials included, in one command.
package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpc/mcpc/internal/protocol"
)

// Turner is a connected MCP client.
type Turner interface {
	Turn(ctx context.Context, req any) (*protocol.TurnResponse, error)
}

// Prompt is the task the scripted agent is given.
const Prompt = "Migrate the dashboard stock warning from adp-alert to sdf-alert"

// Target is the template the migration changes.
const Target = "src/app/dashboard/dashboard.component.html"

type session struct {
	t      Turner
	w      io.Writer
	n      int
	work   string
	agent  string
	denied []string
}

// Run plays the session and returns the work's id, or an error when the
// server does not behave as the lifecycle says it must.
func Run(ctx context.Context, t Turner, w io.Writer) (string, error) {
	s := &session{t: t, w: w}
	err := s.run(ctx)
	return s.work, err
}

func (s *session) run(ctx context.Context) error {
	w := s.w
	// 1. Nothing but initialize_work before a work exists.
	if _, err := s.expectDenied(ctx, "read before initialize_work", map[string]any{
		"verb": "read_file_lines", "args": map[string]any{"targetFile": Target},
	}, "VERB_NOT_AVAILABLE"); err != nil {
		return err
	}
	// 2. Start the work: the pack, the plan schema, the strategy.
	init, err := s.expectAllowed(ctx, "start the work", map[string]any{
		"verb": "initialize_work", "originalPrompt": Prompt,
		"args": map[string]any{"lexemes": []string{"adp-alert", "sdf-alert", "dashboard", "stock warning"}},
	})
	if err != nil {
		return err
	}
	s.work, s.agent = init.WorkID, init.AgentID
	files := packFiles(init)
	fmt.Fprintf(w, "     pack: %d files, hash %s\n", len(files), init.ContextPack["hash"])
	for _, f := range files {
		fmt.Fprintf(w, "       - %s\n", f)
	}
	if !slices.Contains(files, Target) {
		// Ask for it the way an agent would.
		esc, err := s.expectAllowed(ctx, "escalate for the dashboard template", s.req("escalate", map[string]any{
			"need": "the dashboard component template that renders adp-alert",
		}))
		if err != nil {
			return err
		}
		init, files = esc, packFiles(esc)
	}
	// 3. Reads are pack-scoped.
	if _, err := s.expectDenied(ctx, "read outside the pack", s.req("read_file_lines", map[string]any{
		"targetFile": "../../etc/passwd"}), "PACK_SCOPE_VIOLATION"); err != nil {
		return err
	}
	read, err := s.expectAllowed(ctx, "read the template", s.req("read_file_lines", map[string]any{"targetFile": Target}))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "     %v lines read\n", read.Result["totalLines"])
	if _, err := s.expectAllowed(ctx, "note the findings", s.req("write_scratch_file", map[string]any{
		"relativePath": "notes/inventory.md", "content": "adp-alert used once in " + Target + "\n"})); err != nil {
		return err
	}
	// 4. Completion before a plan is refused.
	if _, err := s.expectDenied(ctx, "complete before planning", s.req("signal_task_complete", nil), "WORK_INCOMPLETE"); err != nil {
		return err
	}
	env, _ := init.PlanGraphSchema["envelope"].(map[string]any)
	// 5. A plan without evidence is rejected with every reason at once.
	weak := Plan(env, false)
	if _, err := s.expectDenied(ctx, "submit a plan without evidence", s.req("submit_execution_plan", map[string]any{"planGraph": weak}), ""); err != nil {
		return err
	}
	if _, err := s.expectAllowed(ctx, "submit the full plan", s.req("submit_execution_plan", map[string]any{"planGraph": Plan(env, true)})); err != nil {
		return err
	}
	// 6. Execute: patch, then validate.
	if _, err := s.expectDenied(ctx, "complete with nodes remaining", s.req("signal_task_complete", nil), "WORK_INCOMPLETE"); err != nil {
		return err
	}
	patch, err := s.expectAllowed(ctx, "patch the template", s.req("apply_code_patch", map[string]any{
		"planNodeId": "change-alert", "targetFile": Target,
		"edits": []any{map[string]any{"op": "codemod", "codemod": "rewrite_template_tag",
			"params": map[string]any{"from": "adp-alert", "to": "sdf-alert"}},
			map[string]any{"op": "replace_text", "find": `type="warning"`, "replace": `severity="warning"`}},
	}))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "     artifacts: %v\n", patch.Result["artifactBundleRef"])
	val, err := s.expectAllowed(ctx, "run the validation", s.req("run_automation_recipe", map[string]any{
		"recipeId": "run_targeted_validation", "planNodeId": "validate-alert",
		"params": map[string]any{"commandId": "no-adp-alert"},
	}))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "     validation %v: %s\n", val.Result["status"], strings.TrimSpace(fmt.Sprint(val.Result["output"])))
	done, err := s.expectAllowed(ctx, "complete the work", s.req("signal_task_complete", map[string]any{"summary": "adp-alert migrated"}))
	if err != nil {
		return err
	}
	if done.State != "COMPLETED" {
		return fmt.Errorf("expected COMPLETED, got %s", done.State)
	}
	fmt.Fprintf(w, "\nwork %s COMPLETED in %d turns\n", s.work, s.n)
	return nil
}

func (s *session) req(verb string, args map[string]any) map[string]any {
	r := map[string]any{"verb": verb, "workId": s.work, "agentId": s.agent}
	if args != nil {
		r["args"] = args
	}
	return r
}

func (s *session) turn(ctx context.Context, label string, req map[string]any) (*protocol.TurnResponse, error) {
	s.n++
	resp, err := s.t.Turn(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("turn %d (%s): %w", s.n, label, err)
	}
	verdict := "allowed"
	if len(resp.Denials) > 0 {
		verdict = "DENIED"
	}
	fmt.Fprintf(s.w, "%2d. %-34s %-22s -> %-13s %s  progress %d/%d  tokens %d\n", s.n, label, req["verb"], resp.State, verdict,
		resp.Progress.CompletedNodes, resp.Progress.TotalNodes, resp.BudgetStatus.UsedTokens)
	for _, d := range resp.DenyReasons {
		fmt.Fprintf(s.w, "     %s\n", d)
	}
	return resp, nil
}

func (s *session) expectAllowed(ctx context.Context, label string, req map[string]any) (*protocol.TurnResponse, error) {
	resp, err := s.turn(ctx, label, req)
	if err != nil {
		return nil, err
	}
	if len(resp.Denials) > 0 {
		return nil, fmt.Errorf("turn %d (%s) was denied: %s", s.n, label, strings.Join(resp.DenyReasons, "; "))
	}
	if e, ok := resp.Result["error"]; ok {
		return nil, fmt.Errorf("turn %d (%s) failed: %v", s.n, label, e)
	}
	return resp, nil
}

func (s *session) expectDenied(ctx context.Context, label string, req map[string]any, code string) (*protocol.TurnResponse, error) {
	resp, err := s.turn(ctx, label, req)
	if err != nil {
		return nil, err
	}
	if len(resp.Denials) == 0 {
		return nil, fmt.Errorf("turn %d (%s) was allowed; it must be denied", s.n, label)
	}
	if code != "" && resp.Denials[0].Code != code {
		return nil, fmt.Errorf("turn %d (%s): want %s, got %s", s.n, label, code, resp.DenyReasons[0])
	}
	return resp, nil
}

func packFiles(r *protocol.TurnResponse) []string {
	raw, _ := json.Marshal(r.ContextPack["files"])
	var files []string
	_ = json.Unmarshal(raw, &files)
	return files
}

// Plan is the migration's PlanGraph on the given envelope: one change node
// and the validate node that proves it. Without evidence it leaves out what
// the evidence policy requires.
func Plan(env map[string]any, withEvidence bool) map[string]any {
	plan := map[string]any{}
	for k, v := range env {
		plan[k] = v
	}
	plan["knowledgeStrategyReasons"] = []any{map[string]any{"reason": "adp-alert usage found in the dashboard template", "evidenceRefs": []string{Target}}}
	plan["evidencePolicy"] = map[string]any{"minRequirementSources": 1, "minCodeEvidenceSources": 1, "minDistinctSources": 2}
	plan["planFingerprint"] = "demo-adp-alert-1"
	plan["sourceTraceRefs"] = []string{}
	change := map[string]any{
		"nodeId": "change-alert", "kind": "change", "dependsOn": []string{},
		"atomicityBoundary": "file", "expectedFailureSignatures": []string{"unbalanced sdf-alert"},
		"correctionCandidateOnFail": "revert the template to adp-alert",
		"operation":                 "modify", "targetFile": Target, "targetSymbols": []string{"adp-alert"},
		"whyThisFile":       "it is the only template that renders adp-alert on the dashboard",
		"editIntent":        "replace <adp-alert type> with <sdf-alert severity>",
		"verificationHooks": []any{map[string]any{"recipeId": "run_targeted_validation", "params": map[string]any{"commandId": "no-adp-alert"}}},
		"citations":         []any{},
		"codeEvidence":      []any{},
	}
	if withEvidence {
		change["citations"] = []any{map[string]any{"source": "prompt", "ref": "originalPrompt", "quote": Prompt}}
		change["codeEvidence"] = []any{
			map[string]any{"file": Target, "startLine": 3, "endLine": 3, "symbol": "adp-alert"},
		}
	}
	validate := map[string]any{
		"nodeId": "validate-alert", "kind": "validate", "dependsOn": []string{"change-alert"},
		"atomicityBoundary": "file", "expectedFailureSignatures": []string{"adp-alert is still used"},
		"correctionCandidateOnFail": "patch the remaining adp-alert",
		"verificationHooks":         []any{map[string]any{"recipeId": "run_targeted_validation", "params": map[string]any{"commandId": "no-adp-alert"}}},
		"mapsToNodeIds":             []string{"change-alert"},
		"successCriteria":           "no <adp-alert> remains under src/",
	}
	plan["nodes"] = []any{change, validate}
	return plan
}
