package engine

import (
	"context"
	"reflect"
	"testing"
)

func TestPackageDirs(t *testing.T) {
	for _, tc := range []struct {
		note string
		pkgs []string
		want []string
	}{
		{note: "none", pkgs: nil, want: nil},
		{note: "plain", pkgs: []string{"data.mcpc.hook", "data.mcpc.rules.hook"}, want: []string{"rego/mcpc/hook", "rego/mcpc/rules/hook"}},
		{note: "bracketed has no plain directory", pkgs: []string{"data.mcpc.hook", `data.mcpc.rules.hook["own-files"]`}, want: nil},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := packageDirs(tc.pkgs); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("packageDirs = %q, want %q", got, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		note, file string
		want       bool
	}{
		{note: "in", file: "rego/mcpc/rules/hook/own-files/own_files.rego", want: true},
		{note: "sibling prefix", file: "rego/mcpc/rules/hookish/x.rego", want: false},
		{note: "rooted", file: "/rego/mcpc/hook/hook.rego", want: true},
		{note: "elsewhere", file: "rego/mcpc/rules/plan/x.rego", want: false},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := underDirs(tc.file, []string{"rego/mcpc/hook", "rego/mcpc/rules/hook"}); got != tc.want {
				t.Errorf("underDirs(%s) = %v", tc.file, got)
			}
		})
	}
}

// TestEmbeddedPackagesDecideAsTheWholeBundle: the hook decision of an
// engine that read only the hook's packages is the one the whole embedded
// bundle gives.
func TestEmbeddedPackagesDecideAsTheWholeBundle(t *testing.T) {
	ctx := context.Background()
	pkgs := []string{"data.mcpc.hook", "data.mcpc.rules.hook", "data.mcpc.lib.hook", "data.mcpc.lib.protected", "data.mcpc.lib.tables", "data.mcpc.result"}
	part, err := New(ctx, Options{Query: "data.mcpc.hook.decision", Packages: pkgs})
	if err != nil {
		t.Fatal(err)
	}
	whole, err := New(ctx, Options{Query: "data.mcpc.hook.decision"})
	if err != nil {
		t.Fatal(err)
	}
	target := func(access, file string) map[string]any {
		return map[string]any{"access": access, "at": "tool_input.file_path", "path": map[string]any{
			"raw": file, "canonical": file, "valid": true, "problems": []any{}, "exists": true, "regular": true}}
	}
	input := map[string]any{
		"hook": map[string]any{"host": "cursor", "event": "preToolUse", "tool": "Write", "kind": "write",
			"targets": []any{target("write", ".mcp.json"), target("write", "src/b.ts"), target("read", ".env")}},
		"binding": map[string]any{"requested": "", "found": false, "session": "", "sessionWork": "", "via": "only-active", "active": []any{"work-1"}},
		"work":    map[string]any{"id": "work-1", "state": "PLAN_ACCEPTED"},
		"pack":    map[string]any{"files": []any{"src/a.ts"}},
		"owned":   map[string]any{"src/a.ts": []any{"change-a"}},
	}
	var a, b map[string]any
	if _, _, err := part.Evaluate(ctx, input, &a); err != nil {
		t.Fatal(err)
	}
	if _, _, err := whole.Evaluate(ctx, input, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) || a["permission"] != "deny" {
		t.Errorf("part %v\nwhole %v", a, b)
	}
}
