package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/protocol"
)

// The example's files the codemod tests patch.
const (
	routesFile    = "src/app/app.routes.ts"
	moduleFile    = "src/app/dashboard/dashboard.module.ts"
	componentFile = "src/app/dashboard/dashboard.component.ts"
	alertImport   = "../shared/ui/alert/adp-alert.component"
)

// changeNode is a change node for target, verified by the example's
// no-adp-alert command like the demo's.
func changeNode(id, operation, target string) map[string]any {
	return map[string]any{
		"nodeId": id, "kind": "change", "dependsOn": []string{},
		"atomicityBoundary": "file", "expectedFailureSignatures": []string{"compile error"},
		"correctionCandidateOnFail": "revert the file",
		"operation":                 operation, "targetFile": target, "targetSymbols": []string{"adp-alert"},
		"whyThisFile": "it is part of the adp-alert migration", "editIntent": "migrate adp-alert",
		"verificationHooks": []any{map[string]any{"recipeId": "run_targeted_validation", "params": map[string]any{"commandId": "no-adp-alert"}}},
		"citations":         []any{map[string]any{"source": "prompt", "ref": "originalPrompt", "quote": demo.Prompt}},
		"codeEvidence":      []any{map[string]any{"file": demo.Target, "startLine": 3, "endLine": 3, "symbol": "adp-alert"}},
	}
}

// workWithChanges starts a process on ws and has a plan of the given change
// nodes (and one validate node for them) accepted.
func workWithChanges(t *testing.T, ws string, changes ...map[string]any) *agent {
	t.Helper()
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert", "dashboard")
	plan := demo.Plan(envelopeOf(init), true)
	var ids []string
	nodes := []any{}
	for _, c := range changes {
		nodes = append(nodes, c)
		ids = append(ids, c["nodeId"].(string))
	}
	validate := plan["nodes"].([]any)[1].(map[string]any)
	validate["dependsOn"], validate["mapsToNodeIds"] = ids, ids
	plan["nodes"] = append(nodes, validate)
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": plan}))
	return a
}

func readWorkspaceFile(t *testing.T, ws, rel string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(ws, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func codemodEdit(name string, params map[string]any) map[string]any {
	e := map[string]any{"op": "codemod", "codemod": name}
	if params != nil {
		e["params"] = params
	}
	return e
}

// TestCodemodsOverStdio: each codemod patches the example workspace through
// apply_code_patch and changes exactly the bytes its syntax names.
func TestCodemodsOverStdio(t *testing.T) {
	for _, tc := range []struct {
		note   string
		config string // .ai/config/env.local.json, when set
		target string
		edit   map[string]any
		want   func(before string) string
	}{
		{note: "rename_identifier_in_file", target: componentFile,
			edit: codemodEdit("rename_identifier_in_file", map[string]any{"from": "stockMessage", "to": "lowStockMessage"}),
			want: func(b string) string { return strings.ReplaceAll(b, "stockMessage", "lowStockMessage") }},
		{note: "update_import_specifier", target: moduleFile,
			edit: codemodEdit("update_import_specifier", map[string]any{"module": alertImport, "from": "AdpAlertComponent", "to": "SdfAlertComponent", "toModule": "@sdf/components/alert"}),
			want: func(b string) string {
				return strings.Replace(b, "import { AdpAlertComponent } from '"+alertImport+"';", "import { SdfAlertComponent } from '@sdf/components/alert';", 1)
			}},
		{note: "update_route_path_literal", target: routesFile,
			edit: codemodEdit("update_route_path_literal", map[string]any{"from": "dashboard", "to": "home"}),
			want: func(b string) string {
				b = strings.Replace(b, "redirectTo: 'dashboard'", "redirectTo: 'home'", 1)
				return strings.Replace(b, "path: 'dashboard'", "path: 'home'", 1)
			}},
		{note: "rewrite_template_tag", target: demo.Target,
			edit: codemodEdit("rewrite_template_tag", map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert",
				"propMappings": map[string]any{"type": "severity", "message": "children"}}),
			want: func(b string) string {
				return strings.Replace(b, `<adp-alert type="warning" [message]="stockMessage" dismissible></adp-alert>`,
					`<sdf-alert severity="warning" dismissible>{{ stockMessage }}</sdf-alert>`, 1)
			}},
		{note: "a custom codemod from config", target: moduleFile,
			config: `{"codemods": {"custom": {"sdf_alert_module": {"description": "the alert module moves to @sdf", "steps": [
				{"codemod": "update_import_specifier", "params": {"module": "` + alertImport + `", "toModule": "@sdf/components/alert"}},
				{"codemod": "rename_identifier_in_file", "params": {"from": "AdpAlertComponent", "to": "SdfAlertComponent"}}]}}}}`,
			edit: codemodEdit("sdf_alert_module", nil),
			want: func(b string) string {
				return strings.ReplaceAll(strings.Replace(b, alertImport, "@sdf/components/alert", 1), "AdpAlertComponent", "SdfAlertComponent")
			}},
		{note: "a query codemod from config", target: routesFile,
			config: `{"codemods": {"custom": {"prefix_match": {"language": "typescript", "capture": "v", "replace": "prefix",
				"query": "((pair key: (property_identifier) @k value: (string (string_fragment) @v)) (#eq? @k \"pathMatch\"))"}}}}`,
			edit: codemodEdit("prefix_match", nil),
			want: func(b string) string { return strings.Replace(b, "pathMatch: 'full'", "pathMatch: 'prefix'", 1) }},
	} {
		t.Run(tc.note, func(t *testing.T) {
			ws := newWorkspace(t)
			if tc.config != "" {
				if err := os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"), []byte(tc.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := readWorkspaceFile(t, ws, tc.target)
			a := workWithChanges(t, ws, changeNode("change-1", "modify", tc.target))
			if name := tc.edit["codemod"].(string); tc.config != "" {
				// The plan's acceptance describes the verbs of PLAN_ACCEPTED:
				// the configured codemod is named there.
				if d := a.lastTx.VerbDescriptions["apply_code_patch"].Description; !strings.Contains(d, " "+name) {
					t.Errorf("apply_code_patch's description does not name %s: %s", name, d)
				}
			}
			mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": tc.target}))
			r := a.turn("apply_code_patch", map[string]any{"planNodeId": "change-1", "targetFile": tc.target, "edits": []any{tc.edit}})
			mustAllow(t, r)
			want := tc.want(before)
			if want == before {
				t.Fatal("the test's expected content equals the original")
			}
			if got := readWorkspaceFile(t, ws, tc.target); got != want {
				t.Fatalf("%s is\n%s\nwant\n%s", tc.target, got, want)
			}
		})
	}
}

// TestCodemodRefusals: a rename whose from equals to is answered at once
// as an inapplicable patch and the store is free for the next turn of
// another process; unknown codemods and wrong params are INVALID_ARGS
// decided on the request; nothing is written.
func TestCodemodRefusals(t *testing.T) {
	ws := newWorkspace(t)
	a := workWithChanges(t, ws, changeNode("change-1", "modify", componentFile))
	before := readWorkspaceFile(t, ws, componentFile)
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": componentFile}))
	patch := func(edit map[string]any) *protocol.TurnResponse {
		return a.turn("apply_code_patch", map[string]any{"planNodeId": "change-1", "targetFile": componentFile, "edits": []any{edit}})
	}
	identity := patch(codemodEdit("rename_identifier_in_file", map[string]any{"from": "lowStock", "to": "lowStock"}))
	mustDeny(t, identity, "EXEC_PATCH_INAPPLICABLE")
	if msg := identity.Denials[0].Message; !strings.Contains(msg, `from and to are both "lowStock"`) {
		t.Errorf("denial %q", msg)
	}
	b := startServer(t, ws)
	b.work = a.work
	mustAllow(t, b.turn("read_file_lines", map[string]any{"targetFile": componentFile}))

	for _, tc := range []struct {
		note string
		edit map[string]any
		path string
	}{
		{"unknown codemod", codemodEdit("sed_in_place", nil), "args.edits[0].codemod"},
		{"unknown param", codemodEdit("rename_identifier_in_file", map[string]any{"from": "a", "to": "b", "all": "yes"}), "args.edits[0].params.all"},
		{"param pattern", codemodEdit("update_route_path_literal", map[string]any{"from": "a", "to": "x'); evil('"}), "args.edits[0].params.to"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			r := patch(tc.edit)
			mustDeny(t, r, "INVALID_ARGS")
			if !slices.ContainsFunc(r.Denials, func(d protocol.Denial) bool { return d.Path == tc.path }) {
				t.Errorf("denials %+v, want one at %s", r.Denials, tc.path)
			}
		})
	}
	if got := readWorkspaceFile(t, ws, componentFile); got != before {
		t.Errorf("a refused patch changed %s", componentFile)
	}
}

// TestBadCustomCodemodConfig: a custom codemod whose step is wrong stops
// mcpc at start-up with a config error naming it.
func TestBadCustomCodemodConfig(t *testing.T) {
	ws := newWorkspace(t)
	bad := `{"codemods": {"custom": {"broken": {"steps": [{"codemod": "rename_identifier_in_file", "params": {"from": "a"}}]}}}}`
	if err := os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI(ws, "serve", "--workspace", ws)
	if err == nil || !strings.Contains(out, "codemods.custom.broken.steps[0] (rename_identifier_in_file): param to is required") {
		t.Fatalf("mcpc serve with a broken codemod: %v\n%s", err, out)
	}
}

// TestCreateFileAndConsecutiveEdits: a change node with operation create
// adds a file beside the pack's files with set_content; the next node's
// edit of it needs no read (the agent's own write refreshed its snapshot),
// and two nodes editing one existing file in a row never trip STALE_CONTEXT.
func TestCreateFileAndConsecutiveEdits(t *testing.T) {
	ws := newWorkspace(t)
	const newFile = "src/app/dashboard/stock-alert.ts"
	a := workWithChanges(t, ws,
		changeNode("create-1", "create", newFile),
		changeNode("create-2", "create", newFile),
		changeNode("modify-1", "modify", demo.Target),
		changeNode("modify-2", "modify", demo.Target),
	)
	patch := func(node, target string, edits ...any) *protocol.TurnResponse {
		return a.turn("apply_code_patch", map[string]any{"planNodeId": node, "targetFile": target, "edits": edits})
	}
	mustDeny(t, patch("modify-1", demo.Target, map[string]any{"op": "set_content", "content": "x"}), "PLAN_SCOPE_VIOLATION")
	mustAllow(t, patch("create-1", newFile, map[string]any{"op": "set_content", "content": "export const level = 'warning';\n"}))
	mustAllow(t, patch("create-2", newFile, map[string]any{"op": "replace_text", "find": "'warning'", "replace": "'danger'"}))
	if got := readWorkspaceFile(t, ws, newFile); got != "export const level = 'danger';\n" {
		t.Fatalf("%s is %q", newFile, got)
	}

	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	mustAllow(t, patch("modify-1", demo.Target, map[string]any{"op": "replace_text", "find": `type="warning"`, "replace": `severity="warning"`}))
	mustAllow(t, patch("modify-2", demo.Target, alertCodemod))
	if got := readWorkspaceFile(t, ws, demo.Target); !strings.Contains(got, `<sdf-alert severity="warning"`) {
		t.Fatalf("%s is\n%s", demo.Target, got)
	}
}

// TestCreateOutsidePackFolders: a plan may not create a file away from the
// pack's folders, or a hidden one.
func TestCreateOutsidePackFolders(t *testing.T) {
	ws := newWorkspace(t)
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert", "dashboard")
	for _, target := range []string{"tools/new.ts", "src/app/.env"} {
		plan := demo.Plan(envelopeOf(init), true)
		nodes := plan["nodes"].([]any)
		nodes[0] = changeNode("change-alert", "create", target)
		r := a.turn("submit_execution_plan", map[string]any{"planGraph": plan})
		mustDeny(t, r, "PLAN_SCOPE_VIOLATION")
		if !slices.ContainsFunc(r.Denials, func(d protocol.Denial) bool { return d.Rule == `mcpc.rules.plan["create-scope"]` }) {
			t.Errorf("creating %s: denials %+v, want create-scope's", target, r.Denials)
		}
	}
}
