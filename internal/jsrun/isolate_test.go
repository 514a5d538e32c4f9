package jsrun

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary serve as the isolated script runner.
func TestMain(m *testing.M) {
	if ChildMain() {
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestIsolated: a script in its own process returns its value as in
// process, and one that builds a huge string in a single native call ends
// only its own process at the hard memory cap. The in-process guards
// refuse these builds (guardBuilders); here their string limit is set far
// above the memory cap, as for a build no guard knows of, so the address
// space limit is what stops them.
func TestIsolated(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	lim := DefaultLimits
	lim.Timeout = 20 * time.Second // the memory bombs are slow to reach the cap on a loaded machine
	tests := []struct {
		note, code, outcome, value string
	}{
		{"value", `(async () => ({n: inputs.n + 1}))()`, OK, `{"n":42}`},
		{"endless loop", `(async () => { for (;;) {} })()`, Timeout, ""},
		{"join of shared long strings", `(async () => { const s = "x".repeat(8e6); return Array(1e6).fill(s).join("").length; })()`, MemoryExceeded, ""},
		{"stringify of shared long strings", `(async () => { const s = "x".repeat(8e6); return JSON.stringify(Array(1e6).fill(s)).length; })()`, MemoryExceeded, ""},
		{"require", `(async () => require("fs"))()`, Thrown, ""},
	}
	for _, tc := range tests {
		t.Run(tc.note, func(t *testing.T) {
			lim := lim
			if tc.outcome == Timeout {
				lim.Timeout = time.Second
			}
			if tc.outcome == MemoryExceeded {
				lim.MaxStringBytes = 1 << 40
			}
			res := runIsolated(context.Background(), exe, tc.code, map[string]any{"n": 41}, lim)
			if res.Outcome != tc.outcome {
				t.Fatalf("outcome %s (%s), want %s", res.Outcome, res.Error, tc.outcome)
			}
			if tc.outcome == OK && res.JSON != tc.value {
				t.Errorf("value %s, want %s", res.JSON, tc.value)
			}
			if tc.outcome == Thrown && !strings.Contains(res.Error, "require") {
				t.Errorf("error %q", res.Error)
			}
		})
	}
}

// BenchmarkStartupIsolated is BenchmarkStartup with the script in a
// process of its own, as mcpc serve runs it.
func BenchmarkStartupIsolated(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	inputs := map[string]any{"files": []string{"src/a.ts", "src/b.ts"}}
	for b.Loop() {
		if res := runIsolated(context.Background(), exe, `(async () => ({n: inputs.files.length}))()`, inputs, DefaultLimits); res.Outcome != OK {
			b.Fatal(res.Error)
		}
	}
}
