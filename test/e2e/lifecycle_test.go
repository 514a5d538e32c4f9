package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
)

// TestLifecycle runs a whole work: the gate before initialize_work, the pack,
// pack scope, a rejected and an accepted plan, WORK_INCOMPLETE, a patch, a
// validation and COMPLETED.
func TestLifecycle(t *testing.T) {
	ws := newWorkspace(t)
	a := startServer(t, ws)

	pre := a.turn("read_file_lines", map[string]any{"targetFile": demo.Target})
	mustDeny(t, pre, "VERB_NOT_AVAILABLE")
	if pre.State != "UNINITIALIZED" || !slices.Equal(pre.Capabilities, []string{"initialize_work"}) {
		t.Fatalf("before initialize_work: state %s capabilities %v", pre.State, pre.Capabilities)
	}
	if pre.SuggestedAction.Verb != "initialize_work" {
		t.Errorf("suggestedAction = %+v, want initialize_work", pre.SuggestedAction)
	}
	if _, err := os.Stat(filepath.Join(ws, ".ai", "tmp", "work")); err == nil {
		t.Errorf("a turn before initialize_work created a work folder")
	}

	init := a.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard")
	if init.State != "PLANNING" || init.SchemaVersion != "2.0.0" {
		t.Fatalf("initialize_work: state %s schema %s", init.State, init.SchemaVersion)
	}
	files := packFiles(init)
	if !slices.Contains(files, demo.Target) {
		t.Fatalf("the pack lacks %s: %v", demo.Target, files)
	}
	hash, _ := init.ContextPack["hash"].(string)
	ref, _ := init.ContextPack["ref"].(string)
	onDisk, err := os.ReadFile(filepath.Join(ws, ref))
	if err != nil {
		t.Fatalf("context pack not written at %s: %v", ref, err)
	}
	if want := sha256Of(onDisk); hash != want {
		t.Errorf("pack hash %s, file hashes to %s", hash, want)
	}
	env := envelopeOf(init)
	for _, k := range []string{"workId", "agentId", "runSessionId", "repoSnapshotId", "worktreeRoot", "contextPackRef", "contextPackHash", "policyVersionSet", "scopeAllowlistRef", "knowledgeStrategyId", "schemaVersion"} {
		if _, ok := env[k]; !ok {
			t.Errorf("planGraphSchema.envelope lacks %s", k)
		}
	}
	if env["contextPackHash"] != hash {
		t.Errorf("envelope hash %v != pack hash %s", env["contextPackHash"], hash)
	}
	if init.Strategy["strategyId"] != "migration_adp_to_sdf" {
		t.Errorf("strategy = %v, want migration_adp_to_sdf for an adp- prompt", init.Strategy["strategyId"])
	}

	// Pack scope.
	mustDeny(t, a.turn("read_file_lines", map[string]any{"targetFile": "src/app/nope.ts"}), "PACK_SCOPE_VIOLATION")
	mustDeny(t, a.turn("read_file_lines", map[string]any{"targetFile": "../" + filepath.Base(ws) + "/" + demo.Target}), "PACK_SCOPE_VIOLATION")
	read := a.turn("read_file_lines", map[string]any{"targetFile": demo.Target, "startLine": 2, "endLine": 4})
	mustAllow(t, read)
	if read.Result["startLine"] != float64(2) || read.Result["endLine"] != float64(4) || !strings.Contains(read.Result["content"].(string), "<adp-alert") {
		t.Errorf("read_file_lines result = %v", read.Result)
	}
	search := a.turn("search_codebase_text", map[string]any{"pattern": "adp-alert"})
	mustAllow(t, search)
	matches, _ := search.Result["matches"].([]any)
	if len(matches) == 0 {
		t.Fatalf("search found nothing in the pack")
	}
	for _, m := range matches {
		if f := m.(map[string]any)["file"].(string); !slices.Contains(files, f) {
			t.Errorf("search answered from %s, outside the pack", f)
		}
	}

	// Completion needs a plan.
	mustDeny(t, a.turn("signal_task_complete", nil), "WORK_INCOMPLETE")

	// A rejected plan stays PLANNING and reports every reason.
	bad := demo.Plan(env, false)
	bad["contextPackHash"] = "sha256:" + strings.Repeat("0", 64)
	rej := a.turn("submit_execution_plan", map[string]any{"planGraph": bad})
	mustDeny(t, rej, "PLAN_EVIDENCE_INSUFFICIENT")
	mustDeny(t, rej, "PLAN_STALE_PACK")
	if rej.State != "PLANNING" {
		t.Errorf("a rejected plan moved the state to %s", rej.State)
	}
	mustDeny(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target,
		"edits": []any{map[string]any{"op": "replace_text", "find": "adp-alert", "replace": "x", "occurrence": 1}}}), "VERB_NOT_AVAILABLE")

	acc := a.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(env, true)})
	mustAllow(t, acc)
	if acc.State != "PLAN_ACCEPTED" || acc.Progress.TotalNodes != 2 || acc.Progress.RemainingNodes != 2 {
		t.Fatalf("accepted plan: state %s progress %+v", acc.State, acc.Progress)
	}
	if len(acc.Progress.PendingValidations) != 1 || acc.Progress.PendingValidations[0].NodeID != "validate-alert" {
		t.Errorf("pendingValidations = %+v", acc.Progress.PendingValidations)
	}
	inc := a.turn("signal_task_complete", nil)
	mustDeny(t, inc, "WORK_INCOMPLETE")

	// Validation before the patch is refused; the patch must match its node.
	early := a.turn("run_automation_recipe", map[string]any{"recipeId": "run_targeted_validation", "planNodeId": "validate-alert",
		"params": map[string]any{"commandId": "no-adp-alert"}})
	if len(early.Denials) == 0 {
		t.Errorf("validation ran before its change node was patched")
	}
	mustDeny(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": "src/app/dashboard/dashboard.component.ts",
		"edits": []any{map[string]any{"op": "replace_text", "find": "Dashboard", "replace": "Board", "occurrence": 1}}}), "PLAN_SCOPE_VIOLATION")

	patch := a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target,
		"edits": []any{
			alertCodemod,
			map[string]any{"op": "replace_text", "find": `type="warning"`, "replace": `severity="warning"`},
		}})
	mustAllow(t, patch)
	content, _ := os.ReadFile(filepath.Join(ws, demo.Target))
	if strings.Contains(string(content), "adp-alert") || !strings.Contains(string(content), `<sdf-alert severity="warning"`) {
		t.Fatalf("patched template:\n%s", content)
	}
	for _, k := range []string{"artifactBundleRef", "diffSummaryRef"} {
		p, _ := patch.Result[k].(string)
		if _, err := os.Stat(filepath.Join(ws, p)); p == "" || err != nil {
			t.Errorf("%s = %q does not exist", k, p)
		}
	}
	if ledger, err := os.ReadFile(filepath.Join(ws, ".orchestration", "agent_trace.jsonl")); err != nil || !strings.Contains(string(ledger), demo.Target) {
		t.Errorf("trace ledger lacks the patch: %v", err)
	}

	val := a.turn("run_automation_recipe", map[string]any{"recipeId": "run_targeted_validation", "planNodeId": "validate-alert",
		"params": map[string]any{"commandId": "no-adp-alert"}})
	mustAllow(t, val)
	if val.Result["status"] != "passed" || val.Progress.RemainingNodes != 0 {
		t.Fatalf("validation: result %v progress %+v", val.Result, val.Progress)
	}

	done := a.turn("signal_task_complete", map[string]any{"summary": "migrated"})
	mustAllow(t, done)
	if done.State != "COMPLETED" || !slices.Equal(done.Capabilities, []string{"signal_task_complete"}) {
		t.Fatalf("completion: state %s capabilities %v", done.State, done.Capabilities)
	}
	mustDeny(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}), "VERB_NOT_AVAILABLE")

	// Every turn after initialize_work is a numbered decision record.
	// The files follow the store's records asynchronously; give them a moment.
	var recs []string
	for i := 0; i < 50 && len(recs) < 15; i++ {
		recs, _ = filepath.Glob(filepath.Join(ws, ".ai", "tmp", "work", a.work, "decisions", "*.json"))
		time.Sleep(20 * time.Millisecond)
	}
	if len(recs) < 15 {
		t.Errorf("%d decision records, want one per turn", len(recs))
	}
	out, err := runCLI(ws, "explain-deny", "--work", a.work, "--format", "json")
	if err != nil || !strings.Contains(out, "VERB_NOT_AVAILABLE") || !strings.Contains(out, "same decision") {
		t.Errorf("explain-deny: %v\n%s", err, out)
	}
}
