package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/protocol"
)

// learnedRecords reads records.json.
func learnedRecords(t *testing.T, ws string) map[string]map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(ws, ".ai", "memory", "records.json"))
	if err != nil {
		return nil
	}
	var list []map[string]any
	must(t, json.Unmarshal(raw, &list))
	out := map[string]map[string]any{}
	for _, r := range list {
		out[r["id"].(string)] = r
	}
	return out
}

// candidateFor finds the record learned from one signature.
func candidateFor(records map[string]map[string]any, code, anchor string) map[string]any {
	for _, r := range records {
		sig, _ := r["signature"].(map[string]any)
		if sig != nil && sig["code"] == code && sig["anchor"] == anchor {
			return r
		}
	}
	return nil
}

// memoryCLI runs `mcpc memory ...` at a clock.
func memoryCLI(t *testing.T, ws, now string, args ...string) string {
	t.Helper()
	t.Setenv("MCPC_NOW", now)
	out, err := runCLI(ws, append([]string{"memory"}, args...)...)
	if err != nil {
		t.Fatalf("mcpc memory %v: %v\n%s", args, err, out)
	}
	return out
}

func stateOf(t *testing.T, ws, id string) string {
	t.Helper()
	r := learnedRecords(t, ws)[id]
	if r == nil {
		t.Fatalf("no record %s", id)
	}
	return r["state"].(string)
}

// TestMemoryLearnsFromFriction: repeated denials of one signature become
// one pending candidate with a scaffolded few-shot; the CLI rejects one and
// approves another; the clock moves records through provisional, approved
// and expired; an active few-shot reaches trace_symbol_graph and a new
// pack's activeMemories; signal_task_complete returns the retrospective.
func TestMemoryLearnsFromFriction(t *testing.T) {
	const t0, t49, t200 = "2026-11-25T00:00:00Z", "2026-11-27T01:00:00Z", "2026-12-03T08:00:00Z"
	t.Setenv("MCPC_NOW", t0)
	ws := newWorkspace(t)
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard")
	env := envelopeOf(init)

	// Three denials in each of three domains: dashboard, src/app, the root.
	for _, f := range []string{"src/app/dashboard/nope.ts", "src/app/nope.ts", "nope.ts"} {
		for range 3 {
			mustDeny(t, a.turn("read_file_lines", map[string]any{"targetFile": f}), "PACK_SCOPE_VIOLATION")
		}
	}
	// A fourth denial of the dashboard signature opens no second candidate.
	mustDeny(t, a.turn("read_file_lines", map[string]any{"targetFile": "src/app/dashboard/again.ts"}), "PACK_SCOPE_VIOLATION")

	// Complete the work; the retrospective comes with completion.
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(env, true)}))
	mustAllow(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target,
		"edits": []any{alertCodemod, map[string]any{"op": "replace_text", "find": `type="warning"`, "replace": `severity="warning"`}}}))
	mustAllow(t, a.turn("run_automation_recipe", map[string]any{"recipeId": "run_targeted_validation", "planNodeId": "validate-alert",
		"params": map[string]any{"commandId": "no-adp-alert"}}))
	done := a.turn("signal_task_complete", map[string]any{"summary": "migrated"})
	mustAllow(t, done)
	checkRetrospective(t, done)

	ledger, err := os.ReadFile(filepath.Join(ws, ".ai", "tmp", "friction-ledger.jsonl"))
	must(t, err)
	lines := strings.Split(strings.TrimSpace(string(ledger)), "\n")
	if len(lines) != 10 {
		t.Fatalf("ledger has %d lines, want 10 denials:\n%s", len(lines), ledger)
	}
	var last struct {
		Trigger       string         `json:"trigger"`
		Codes         []string       `json:"rejectionCodes"`
		DomainAnchors []string       `json:"domainAnchors"`
		Counts        map[string]int `json:"counts"`
		Strategy      string         `json:"strategy"`
		Work          string         `json:"work"`
		Session       string         `json:"session"`
	}
	must(t, json.Unmarshal([]byte(lines[9]), &last))
	if last.Trigger != "read_file_lines" || !slices.Equal(last.Codes, []string{"PACK_SCOPE_VIOLATION"}) ||
		!slices.Equal(last.DomainAnchors, []string{"src/app/dashboard"}) || last.Strategy != "migration_adp_to_sdf" ||
		last.Work != a.work || last.Session == "" || last.Counts["PACK_SCOPE_VIOLATION|src/app/dashboard|migration_adp_to_sdf"] != 4 {
		t.Errorf("last ledger entry = %+v", last)
	}

	records := learnedRecords(t, ws)
	dash := candidateFor(records, "PACK_SCOPE_VIOLATION", "src/app/dashboard")
	app := candidateFor(records, "PACK_SCOPE_VIOLATION", "src/app")
	root := candidateFor(records, "PACK_SCOPE_VIOLATION", "")
	if dash == nil || app == nil || root == nil {
		t.Fatalf("candidates missing: %v", records)
	}
	n := 0
	for _, r := range records {
		if r["trigger"] == "rejection_pattern" {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d candidates from friction, want one per signature (3)", n)
	}
	if dash["state"] != "pending" || dash["enforcementType"] != "few_shot" || dash["phase"] != "exploration" ||
		dash["createdAt"] != t0 || !strings.HasPrefix(dash["traceRef"].(string), "friction:"+a.work) ||
		!slices.Equal(anyStrings(dash["domainAnchorIds"]), []string{"anchor:src/app/dashboard"}) ||
		!slices.Equal(anyStrings(dash["rejectionCodes"]), []string{"PACK_SCOPE_VIOLATION"}) {
		t.Errorf("dashboard candidate = %v", dash)
	}
	// A read outside the pack is a scope rule's denial: a worked example
	// (few_shot), its anti-pattern the denied call, why from the rule's
	// METADATA and the denial, what to do from its remediation.
	if fs, _ := dash["fewShot"].(map[string]any); fs == nil || !strings.Contains(fs["instruction"].(string), "src/app/dashboard") ||
		fs["before"] != "read_file_lines src/app/dashboard/nope.ts" || !strings.Contains(fs["whyWrong"].(string), " Here: ") ||
		fs["rule"] != `mcpc.rules.scope["pack-scope"]` || dash["scaffolded"] != true {
		t.Errorf("dashboard few-shot = %v", dash["fewShot"])
	}
	dashID, appID, rootID := dash["id"].(string), app["id"].(string), root["id"].(string)

	// A person in the loop.
	var listed []map[string]any
	must(t, json.Unmarshal([]byte(memoryCLI(t, ws, t0, "list", "--state", "pending", "--format", "json")), &listed))
	if len(listed) < 3 {
		t.Errorf("list --state pending = %v", listed)
	}
	if text := memoryCLI(t, ws, t0, "list"); !strings.Contains(text, dashID) || !strings.Contains(text, "STATE") {
		t.Errorf("list (text):\n%s", text)
	}
	if show := memoryCLI(t, ws, t0, "show", dashID); !strings.Contains(show, `"fewShot"`) {
		t.Errorf("show:\n%s", show)
	}
	memoryCLI(t, ws, t0, "reject", appID, "--reason", "reading outside the pack is not a pattern", "--by", "alice")
	if stateOf(t, ws, appID) != "rejected" {
		t.Fatalf("reject did not reject")
	}
	if _, err := runCLI(ws, "memory", "approve", appID, "--by", "alice"); err == nil {
		t.Errorf("a rejected record was approved")
	}
	if _, err := runCLI(ws, "memory", "show", "no-such-id"); err == nil {
		t.Errorf("show of an unknown id succeeded")
	}

	// The contest window passes: pending records become provisional.
	memoryCLI(t, ws, t49, "expire-check")
	if s := stateOf(t, ws, dashID); s != "provisional" {
		t.Fatalf("after the contest window %s is %s", dashID, s)
	}
	if stateOf(t, ws, appID) != "rejected" {
		t.Errorf("a rejected record changed state")
	}

	// A provisional few-shot reaches a new pack and trace_symbol_graph.
	t.Setenv("MCPC_NOW", t49)
	b := startServer(t, ws)
	again := b.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard")
	active := anyIDs(again.ContextPack["activeMemories"])
	if !slices.Contains(active, dashID) || slices.Contains(active, appID) {
		t.Errorf("activeMemories = %v, want %s and not the rejected %s", active, dashID, appID)
	}
	trace := b.turn("trace_symbol_graph", map[string]any{"targetFile": demo.Target})
	mustAllow(t, trace)
	shots := anyIDsBy(trace.Result["fewShots"], "memoryId")
	if !slices.Contains(shots, dashID) || slices.Contains(shots, appID) {
		t.Errorf("trace fewShots = %v, want %s", trace.Result["fewShots"], dashID)
	}

	memoryCLI(t, ws, t49, "approve", dashID, "--by", "bob", "--reason", "a good example")
	if stateOf(t, ws, dashID) != "approved" {
		t.Fatalf("approve did not approve")
	}

	// Past the provisional window: the unapproved few-shot expires, the
	// approved and rejected ones stay, the informational retrospective
	// candidate is approved automatically.
	memoryCLI(t, ws, t200, "expire-check")
	if s := stateOf(t, ws, rootID); s != "expired" {
		t.Errorf("unapproved few-shot is %s past its window, want expired", s)
	}
	if stateOf(t, ws, dashID) != "approved" || stateOf(t, ws, appID) != "rejected" {
		t.Errorf("approved/rejected records moved")
	}
	for id, r := range learnedRecords(t, ws) {
		if r["trigger"] == "retrospective" && r["state"] != "approved" {
			t.Errorf("retrospective candidate %s is %v, want approved (informational is auto-promotable)", id, r["state"])
		}
	}
	changelog, err := os.ReadFile(filepath.Join(ws, ".ai", "memory", "changelog.jsonl"))
	must(t, err)
	for _, want := range []string{`"by":"alice"`, `"by":"bob"`, `"to":"provisional"`, `"to":"expired"`, "reading outside the pack is not a pattern"} {
		if !strings.Contains(string(changelog), want) {
			t.Errorf("changelog lacks %s:\n%s", want, changelog)
		}
	}
}

func checkRetrospective(t *testing.T, done *protocol.TurnResponse) {
	t.Helper()
	raw, _ := json.Marshal(done.Result["retrospective"])
	var r struct {
		Friction struct {
			Heatmap       map[string]int   `json:"heatmap"`
			TopSignatures []map[string]any `json:"topSignatures"`
			Trend         string           `json:"trend"`
			Dropped       *int             `json:"droppedEntries"`
		} `json:"friction"`
		Memory struct {
			Pending     int      `json:"pending"`
			NeedsReview []string `json:"needsReview"`
		} `json:"memory"`
		Session struct {
			Turns      int            `json:"turns"`
			Rejections int            `json:"rejections"`
			Verbs      map[string]int `json:"verbs"`
		} `json:"session"`
		Suggestions []map[string]any `json:"suggestions"`
		Recorded    []string         `json:"recorded"`
	}
	must(t, json.Unmarshal(raw, &r))
	if r.Friction.Heatmap["PACK_SCOPE_VIOLATION"] != 10 || len(r.Friction.TopSignatures) == 0 ||
		r.Friction.TopSignatures[0]["anchor"] != "src/app/dashboard" || r.Friction.TopSignatures[0]["count"] != float64(4) ||
		r.Friction.Dropped == nil || *r.Friction.Dropped != 0 {
		t.Errorf("friction digest = %s", raw)
	}
	if r.Memory.Pending < 3 || len(r.Memory.NeedsReview) < 3 {
		t.Errorf("memory status = %s", raw)
	}
	if r.Session.Turns != 16 || r.Session.Rejections != 10 || r.Session.Verbs["read_file_lines"] != 11 {
		t.Errorf("session = %+v", r.Session)
	}
	kinds := map[string]bool{}
	for _, s := range r.Suggestions {
		kinds[s["kind"].(string)] = true
	}
	if !kinds["plan_rule"] || !kinds["few_shot"] || len(r.Recorded) != 1 {
		t.Errorf("suggestions = %v recorded %v", r.Suggestions, r.Recorded)
	}
}

func anyStrings(v any) []string {
	list, _ := v.([]any)
	out := []string{}
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func anyIDs(v any) []string { return anyIDsBy(v, "id") }

func anyIDsBy(v any, key string) []string {
	list, _ := v.([]any)
	out := []string{}
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			if s, ok := m[key].(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}
