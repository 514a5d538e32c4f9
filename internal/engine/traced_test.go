package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/profiler"
)

// TestEvalTracedDecidesAsEval: a profiled evaluation decides as a turn's
// does, and the profiler sees the policy's expressions.
func TestEvalTracedDecidesAsEval(t *testing.T) {
	ctx := context.Background()
	d := t.TempDir()
	rego := "package mcpc.main\n\ndecision := {\"allow\": input.n > 1, \"n\": input.n}\n"
	if err := os.WriteFile(filepath.Join(d, "p.rego"), []byte(rego), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := New(ctx, Options{BundlePath: d})
	if err != nil {
		t.Fatal(err)
	}
	in, err := ParseInput(map[string]any{"n": 2})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := e.Eval(ctx, in, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := profiler.New()
	traced, err := e.EvalTraced(ctx, in, nil, p)
	if err != nil {
		t.Fatal(err)
	}
	if string(traced) != string(plain) {
		t.Errorf("traced decision %s, want %s", traced, plain)
	}
	if len(p.ReportTopNResults(-1, []string{"num_eval"})) == 0 {
		t.Error("the profiler saw no expression")
	}
}
