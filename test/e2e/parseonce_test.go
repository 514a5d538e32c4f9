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

// withRawKeys is obj as JSON with extra members (raw JSON text, such as
// `"targetfile":"x"`) appended: a map cannot hold a duplicate or a case
// twin, the text an agent sends can.
func withRawKeys(t *testing.T, obj map[string]any, extra string) json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(obj)
	must(t, err)
	if len(obj) == 0 {
		return json.RawMessage("{" + extra + "}")
	}
	return json.RawMessage(string(raw[:len(raw)-1]) + "," + extra + "}")
}

// mustDenyAt checks r is denied with code (INVALID_ARGS unless given) at path.
func mustDenyAt(t *testing.T, r *protocol.TurnResponse, path string, code ...string) {
	t.Helper()
	want := "INVALID_ARGS"
	if len(code) > 0 {
		want = code[0]
	}
	mustDeny(t, r, want)
	paths := []string{}
	for _, d := range r.Denials {
		if d.Code == want {
			paths = append(paths, d.Path)
		}
	}
	if !slices.Contains(paths, path) {
		t.Fatalf("%s at %v, want one at %q (%v)", want, paths, path, r.DenyReasons)
	}
}

// TestPlanRunsAsJudged: over real stdio, a plan or a patch whose executed
// meaning could differ from the judged one (a duplicate key, or a key that
// differs from another only in case, Unicode folding included, anywhere in
// the request) is INVALID_ARGS and changes nothing; the plan accepted after
// them runs exactly as judged.
func TestPlanRunsAsJudged(t *testing.T) {
	ws := newWorkspace(t)
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert")
	env := envelopeOf(init)
	before := treeHash(t, ws)
	other := "src/app/shared/ui/alert/adp-alert.component.ts" // holds adp-alert too

	// request builds the submit_execution_plan text around a plan whose
	// first node gets nodeExtra, whose plan object gets planExtra and whose
	// args and envelope get argsExtra and topExtra.
	request := func(nodeExtra, planExtra, argsExtra, topExtra string) json.RawMessage {
		plan := demo.Plan(env, true)
		plan["nodes"] = append(plan["nodes"].([]any), map[string]any{
			"nodeId": "notify", "kind": "side_effect", "dependsOn": []string{"validate-alert"},
			"atomicityBoundary": "repository", "expectedFailureSignatures": []string{}, "correctionCandidateOnFail": "none",
			"sideEffectType": "notification", "sideEffectPayloadRef": "scratch:note", "commitGateId": "notify-gate",
		})
		nodes := plan["nodes"].([]any)
		raws := make([]any, len(nodes))
		for i, n := range nodes {
			raws[i] = n
		}
		switch {
		case strings.HasPrefix(nodeExtra, "side:"):
			raws[2] = withRawKeys(t, nodes[2].(map[string]any), strings.TrimPrefix(nodeExtra, "side:"))
		case nodeExtra != "":
			raws[0] = withRawKeys(t, nodes[0].(map[string]any), nodeExtra)
		}
		plan["nodes"] = raws
		var planRaw any = plan
		if planExtra != "" {
			planRaw = withRawKeys(t, plan, planExtra)
		}
		args := map[string]any{"planGraph": planRaw}
		var argsRaw any = args
		if argsExtra != "" {
			argsRaw = withRawKeys(t, args, argsExtra)
		}
		top := map[string]any{"verb": "submit_execution_plan", "workId": a.work, "agentId": a.id, "args": argsRaw}
		if topExtra == "" {
			raw, err := json.Marshal(top)
			must(t, err)
			return raw
		}
		return withRawKeys(t, top, topExtra)
	}

	hostile := []struct {
		note                                      string
		nodeExtra, planExtra, argsExtra, topExtra string
		path                                      string
	}{
		{note: "case twin of targetFile", nodeExtra: `"targetfile":"` + other + `"`, path: "args.planGraph.nodes[0].targetfile"},
		{note: "duplicate targetFile", nodeExtra: `"targetFile":"` + other + `"`, path: "args.planGraph.nodes[0].targetFile"},
		{note: "dotless i twin of targetFile", nodeExtra: `"targetF\u0131le":"` + other + `"`, path: "args.planGraph.nodes[0].targetFıle"},
		{note: "Kelvin sign twin of kind", nodeExtra: `"\u212Aind":"side_effect"`, path: "args.planGraph.nodes[0].\u212Aind"},
		{note: "case twin of sideEffectType", nodeExtra: `side:"sideeffecttype":"git_commit"`, path: "args.planGraph.nodes[2].sideeffecttype"},
		{note: "long s twin of sideEffectType", nodeExtra: `side:"\u017FideEffectType":"git_commit"`, path: "args.planGraph.nodes[2].\u017FideEffectType"},
		{note: "duplicate dependsOn", nodeExtra: `"dependsOn":["validate-alert"]`, path: "args.planGraph.nodes[0].dependsOn"},
		{note: "case twin of nodes", planExtra: `"Nodes":[]`, path: "args.planGraph.Nodes"},
		{note: "duplicate planGraph", argsExtra: `"planGraph":{}`, path: "args.planGraph"},
		{note: "duplicate verb at top level", topExtra: `"verb":"signal_task_complete"`, path: "verb"},
		{note: "case twin of workId", topExtra: `"WORKID":"work-other"`, path: "WORKID"},
	}
	for _, tc := range hostile {
		t.Run(tc.note, func(t *testing.T) {
			a.t = t
			r := a.send(request(tc.nodeExtra, tc.planExtra, tc.argsExtra, tc.topExtra))
			mustDenyAt(t, r, tc.path)
			if r.State != init.State {
				t.Errorf("the state moved: %s -> %s", init.State, r.State)
			}
			if got := treeHash(t, ws); got != before {
				t.Error("a refused plan changed the workspace")
			}
		})
	}
	a.t = t
	// Nothing was accepted: patching is still refused for want of a plan.
	if r := a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": other, "edits": []any{alertCodemod}}); len(r.Denials) == 0 {
		t.Fatalf("a patch was allowed before any plan was accepted: %v", r.Result)
	}

	mustAllow(t, a.send(request("", "", "", "")))
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	patch := func(argsExtra string, edit json.RawMessage) *protocol.TurnResponse {
		args := map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target, "edits": []any{edit}}
		raw, err := json.Marshal(map[string]any{"verb": "apply_code_patch", "workId": a.work, "agentId": a.id,
			"args": withRawKeys(t, args, argsExtra)})
		must(t, err)
		return a.send(json.RawMessage(raw))
	}
	replace := map[string]any{"op": "replace_text", "find": "<adp-alert", "replace": "<sdf-alert", "occurrence": 1}
	for _, tc := range []struct {
		note, argsExtra, editExtra, path string
	}{
		{note: "case twin of targetFile in args", argsExtra: `"targetfile":"` + other + `"`, path: "args.targetfile"},
		{note: "duplicate planNodeId", argsExtra: `"planNodeId":"validate-alert"`, path: "args.planNodeId"},
		{note: "case twin of find in an edit", editExtra: `"FIND":"</adp-alert>"`, path: "args.edits[0].FIND"},
		{note: "duplicate replace in an edit", editExtra: `"replace":"<script"`, path: "args.edits[0].replace"},
		{note: "Kelvin sign twin in an edit", editExtra: `"\u212Aey":1,"key":2`, path: "args.edits[0].key"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			a.t = t
			extra := tc.argsExtra
			if extra == "" {
				extra = `"note":"x"`
			}
			edit := json.RawMessage(mustJSON(t, replace))
			if tc.editExtra != "" {
				edit = withRawKeys(t, replace, tc.editExtra)
			}
			mustDenyAt(t, patch(extra, edit), tc.path)
			if got := treeHash(t, ws); got != before {
				t.Error("a refused patch changed the workspace")
			}
		})
	}
	a.t = t

	// The plan as judged runs: the change node's file, and nothing else, is
	// patched; the side effect stays the notification that was declared.
	otherBefore, err := os.ReadFile(filepath.Join(ws, other))
	must(t, err)
	r := a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target, "edits": []any{alertCodemod}})
	mustAllow(t, r)
	if r.Result["targetFile"] != demo.Target {
		t.Errorf("patched %v, want %s", r.Result["targetFile"], demo.Target)
	}
	if after, _ := os.ReadFile(filepath.Join(ws, other)); string(after) != string(otherBefore) {
		t.Errorf("%s changed", other)
	}
	mustAllow(t, validateAlert(a))
	if out, err := runCLI(ws, "gate", "approve", "--work", a.work, "--gate", "notify-gate", "--by", "reviewer"); err != nil {
		t.Fatalf("gate approve: %v\n%s", err, out)
	}
	// Policy judges the side effect the plan declared: a notification,
	// which this build does not execute, whatever the agent now says.
	for _, asked := range []string{"notification", "git_commit"} {
		r = a.turn("execute_gated_side_effect", map[string]any{"planNodeId": "notify", "sideEffectType": asked})
		mustDeny(t, r, "EXEC_SIDE_EFFECT_UNSUPPORTED")
		if r.Result["executed"] != nil || r.Result["commit"] != nil || !strings.Contains(r.DenyReasons[0], `"notification"`) {
			t.Fatalf("the declared notification ran as something else: %v %v", r.Result, r.DenyReasons)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	must(t, err)
	return raw
}
