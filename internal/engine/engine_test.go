package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFailClosed: every way the policy can fail is an error, never a
// decision the caller could mistake for an allow.
func TestFailClosed(t *testing.T) {
	ctx := context.Background()
	dir := func(rego string) string {
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, "p.rego"), []byte(rego), 0o644); err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, tc := range []struct {
		note, rego, code string
	}{
		{"undefined decision", "package mcpc.main\n\ndecision := {\"allow\": true} if input.never\n", "undefined"},
		{"decision not an object", "package mcpc.main\n\ndecision := true\n", "malformed"},
		{"conflicting decisions", "package mcpc.main\n\ndecision := {\"allow\": true} if input.zero == 0\n\ndecision := {\"allow\": false} if input.zero == 0\n", "eval"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			e, err := New(ctx, Options{BundlePath: dir(tc.rego)})
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = e.Evaluate(ctx, map[string]any{"zero": 0}, &map[string]any{})
			ee, ok := err.(*Error)
			if !ok || ee.Code != tc.code {
				t.Fatalf("err %v, want code %s", err, tc.code)
			}
		})
	}
	if _, err := New(ctx, Options{BundlePath: dir("package mcpc.main\ndecision := {")}); err == nil {
		t.Errorf("a bundle that does not parse compiled")
	}
	l := Load(ctx, LoaderOptions{Bundle: filepath.Join(t.TempDir(), "absent.tar.gz"), PollInterval: -1})
	if _, _, err := l.Evaluate(ctx, map[string]any{}, nil); err == nil || err.(*Error).Code != "bundle_missing" {
		t.Errorf("a missing bundle evaluated: %v", err)
	}
}

// TestEmbeddedPolicies: the defaults compile, carry the verb catalogue, and
// document every rule.
func TestEmbeddedPolicies(t *testing.T) {
	e, err := New(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e.Data("data", "mcpc", "verbs", "initialize_work") == nil {
		t.Errorf("the verb catalogue is not at data.mcpc.verbs")
	}
	docs := e.RuleDocs()
	if len(docs) < 20 {
		t.Errorf("%d documented rules", len(docs))
	}
	for rule, d := range docs {
		if d.Title == "" || d.Custom["code"] == nil && len(rule) > 11 && rule[:11] == "mcpc.rules." {
			t.Errorf("%s lacks a title or custom.code", rule)
		}
	}
}

// TestPolicyDirectory: --bundle naming a directory laid out like policies/,
// or a bundle file WriteBundle made of it, decides exactly as the embedded
// defaults do, data tables included (a bundle reader would read only files
// named data.json and drop them), and carries the same version, so a plan
// built under one is current under the others.
func TestPolicyDirectory(t *testing.T) {
	ctx := context.Background()
	embedded, err := New(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	policiesDir := filepath.Join("..", "..", "policies")
	bundleFile := filepath.Join(t.TempDir(), "mcpc.tar.gz")
	f, err := os.Create(bundleFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteBundle(policiesDir, f, nil); err != nil {
		t.Fatal(err)
	}
	f.Close()
	raw, err := os.ReadFile(filepath.Join("testdata", "read-input.json"))
	if err != nil {
		t.Fatal(err)
	}
	_, want, err := embedded.Evaluate(ctx, json.RawMessage(raw), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ note, path string }{{"directory", policiesDir}, {"bundle file", bundleFile}} {
		t.Run(tc.note, func(t *testing.T) {
			e, err := New(ctx, Options{BundlePath: tc.path})
			if err != nil {
				t.Fatal(err)
			}
			if e.Version() != embedded.Version() {
				t.Errorf("version %s, %s embedded", e.Version(), embedded.Version())
			}
			_, got, err := e.Evaluate(ctx, json.RawMessage(raw), nil)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("decided\n%s\nthe embedded policies\n%s", got, want)
			}
		})
	}
}

// TestStrictCompile: Strict refuses what `opa check --strict` refuses, with
// every error and its location; without it the same policy compiles.
func TestStrictCompile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	rego := "package mcpc.main\n\nimport data.unused\n\ndecision := {\"allow\": false}\n\nf(x) := 1\n"
	if err := os.WriteFile(filepath.Join(dir, "p.rego"), []byte(rego), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(ctx, Options{BundlePath: dir}); err != nil {
		t.Fatalf("lenient compile: %v", err)
	}
	_, err := New(ctx, Options{BundlePath: dir, Strict: true})
	errs, ok := err.(Errors)
	if !ok || len(errs) != 2 {
		t.Fatalf("err %v, want the two strict errors", err)
	}
	for i, loc := range []string{"p.rego:3", "p.rego:7"} {
		if errs[i].Code != "compile" || errs[i].Location != loc {
			t.Errorf("error %d: %+v, want a compile error at %s", i, errs[i], loc)
		}
	}
}

// TestEvaluationStopsWithItsContext: a turn whose context ends (the client
// cancelled, the server is stopping) stops the policy mid-evaluation and
// fails closed.
func TestEvaluationStopsWithItsContext(t *testing.T) {
	d := t.TempDir()
	slow := "package mcpc.main\n\ndecision := {\"allow\": true, \"n\": count([x | some x in numbers.range(1, 100000000); x % 7 == 0])}\n"
	if err := os.WriteFile(filepath.Join(d, "p.rego"), []byte(slow), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := New(context.Background(), Options{BundlePath: d})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, _, err = e.Evaluate(ctx, map[string]any{}, &map[string]any{})
	if ee, ok := err.(*Error); !ok || ee.Code != "eval" {
		t.Fatalf("err %v, want an eval error", err)
	}
}

// TestStage1 evaluates the first stage of the embedded policy, and of a
// bundle written before stages (its decision, asking for the verb stage).
func TestStage1(t *testing.T) {
	ctx := context.Background()
	oneStage := t.TempDir()
	if err := os.WriteFile(filepath.Join(oneStage, "p.rego"), []byte("package mcpc.main\n\ndecision := {\"allow\": input.ok}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		note, bundle string
		input        map[string]any
		want         string
	}{
		{"a bundle before stages allows", oneStage, map[string]any{"ok": true}, `{"verbStage":true,"allow":true}`},
		{"a bundle before stages denies", oneStage, map[string]any{"ok": false}, `{"verbStage":true,"allow":false}`},
	} {
		t.Run(tc.note, func(t *testing.T) {
			e, err := New(ctx, Options{BundlePath: tc.bundle})
			if err != nil {
				t.Fatal(err)
			}
			var out struct {
				Allow     bool `json:"allow"`
				VerbStage bool `json:"verbStage"`
			}
			_, raw, err := e.EvaluateStage1(ctx, tc.input, &out)
			if err != nil || string(raw) != tc.want || !out.VerbStage {
				t.Fatalf("got %s %+v %v, want %s", raw, out, err, tc.want)
			}
		})
	}
	e, err := New(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "read-input.json"))
	if err != nil {
		t.Fatal(err)
	}
	var read map[string]any
	if err := json.Unmarshal(raw, &read); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Allow     *bool `json:"allow"`
		VerbStage *bool `json:"verbStage"`
	}
	read["stage"] = "request"
	if _, _, err := e.EvaluateStage1(ctx, read, &out); err != nil || out.Allow == nil || !*out.Allow || out.VerbStage == nil || *out.VerbStage {
		t.Fatalf("the first stage of a read: %+v %v, want allowed without a verb stage", out, err)
	}
	read["stage"] = "verb"
	if _, _, err := e.EvaluateStage1(ctx, read, &out); err == nil {
		t.Fatalf("stage1 of a verb-stage input is defined, want undefined (fail closed)")
	}
}
