package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
)

// TestPlanFrictionLearnsAPlanRule: repeated plan-validation denials in one
// domain become a pending plan_rule candidate with its rule scaffolded
// (condition, requiredSteps, denyCode) and a few-shot whose "before" is the
// denied plan's nodes and whose "why" is the rule's METADATA; the accepted
// plan fills in "after" and the required steps. The clock never makes it
// provisional or approved (a plan_rule needs a person) and it is not in
// force until a person approves it with the CLI; then a new pack lists it
// among the memories in force.
func TestPlanFrictionLearnsAPlanRule(t *testing.T) {
	const t0, t49, t200 = "2026-11-25T00:00:00Z", "2026-11-27T01:00:00Z", "2026-12-03T08:00:00Z"
	t.Setenv("MCPC_NOW", t0)
	ws := newWorkspace(t)
	a := startServer(t, ws)
	env := envelopeOf(a.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard"))
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	var code string
	for range 3 {
		r := a.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(env, false)})
		if len(r.Denials) == 0 {
			t.Fatalf("a plan without evidence was allowed: %+v", r)
		}
		code = r.Denials[0].Code
	}
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(env, true)}))
	must(t, a.c.Close()) // the learner drains its queue before the server exits

	rec := candidateFor(learnedRecords(t, ws), code, "src/app/dashboard")
	if rec == nil {
		t.Fatalf("no candidate for %s in src/app/dashboard: %v", code, learnedRecords(t, ws))
	}
	id := rec["id"].(string)
	if rec["enforcementType"] != "plan_rule" || rec["phase"] != "planning" || rec["state"] != "pending" || rec["scaffolded"] != true {
		t.Errorf("plan friction candidate = %v", rec)
	}
	rule, _ := rec["planRule"].(map[string]any)
	cond, _ := rule["condition"].(map[string]any)
	if rule["denyCode"] != code || !slices.Equal(anyStrings(cond["fileGlobs"]), []string{"src/app/dashboard/**"}) ||
		!slices.Equal(anyStrings(cond["strategyIds"]), []string{"migration_adp_to_sdf"}) {
		t.Errorf("scaffolded planRule = %v", rule)
	}
	steps, _ := rule["requiredSteps"].([]any)
	if len(steps) != 1 || steps[0].(map[string]any)["commandId"] != "no-adp-alert" || steps[0].(map[string]any)["recipeId"] != "run_targeted_validation" {
		t.Errorf("requiredSteps = %v, want the accepted plan's validation step", steps)
	}
	fs, _ := rec["fewShot"].(map[string]any)
	before, _ := fs["before"].(string)
	after, _ := fs["after"].(string)
	why, _ := fs["whyWrong"].(string)
	if !strings.Contains(before, "change change-alert "+demo.Target) || !strings.Contains(after, "change change-alert "+demo.Target) ||
		!strings.Contains(after, "validate validate-alert") || !strings.Contains(why, " Here: ") || fs["instruction"] == "" {
		t.Errorf("few-shot = %v", fs)
	}

	// The clock moves a plan_rule nowhere but to expired: it needs a person.
	memoryCLI(t, ws, t49, "expire-check")
	if s := stateOf(t, ws, id); s != "pending" {
		t.Fatalf("past the contest window the plan_rule is %s, want pending", s)
	}
	t.Setenv("MCPC_NOW", t49)
	b := startServer(t, ws)
	init := b.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard")
	if slices.Contains(anyIDs(init.ContextPack["memories"]), id) || slices.Contains(anyIDs(init.ContextPack["activeMemories"]), id) {
		t.Errorf("an unapproved plan_rule is in force: %v", init.ContextPack["memories"])
	}
	memoryCLI(t, ws, t49, "approve", id, "--by", "carol", "--reason", "plans here must run the alert check")
	c := startServer(t, ws)
	init = c.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard")
	if !slices.Contains(anyIDs(init.ContextPack["memories"]), id) || !slices.Contains(anyIDs(init.ContextPack["activeMemories"]), id) {
		t.Errorf("the approved plan_rule is not in force: memories %v active %v", anyIDs(init.ContextPack["memories"]), anyIDs(init.ContextPack["activeMemories"]))
	}
	memoryCLI(t, ws, t200, "expire-check")
	if s := stateOf(t, ws, id); s != "approved" {
		t.Errorf("an approved plan_rule moved to %s", s)
	}
}
