package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
)

// TestSearchCostIsBounded: a search holds the workspace's write lock, so an
// agent's pattern must not be able to make it run for minutes. Patterns
// that compile to a huge program are refused, lines too long for the
// pattern are skipped and said to be, args.files narrows the search, and
// the server answers every one promptly.
func TestSearchCostIsBounded(t *testing.T) {
	ws := newWorkspace(t)
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert")
	files := packFiles(init)
	// One pack file becomes a single 1 MB line, as a minified bundle is.
	must(t, os.WriteFile(filepath.Join(ws, demo.Target), []byte(strings.Repeat("x", 1<<20)+"\n"), 0o644))

	for _, tc := range []struct {
		note     string
		args     map[string]any
		wantDeny string // the denial's code
		skipped  bool   // result.linesSkipped
		searched int    // result.filesSearched, when not zero
	}{
		{note: "nested repeats are refused", args: map[string]any{"pattern": "(?:x?){1000}b", "regex": true},
			wantDeny: "SEARCH_PATTERN_TOO_COMPLEX"},
		{note: "a long line is skipped for a large pattern", args: map[string]any{"pattern": "(?:x?){200}b", "regex": true}, skipped: true},
		{note: "a plain word searches everything", args: map[string]any{"pattern": "adp-alert"}, searched: len(files)},
		{note: "a long exact-case literal still reads the long line", args: map[string]any{"pattern": strings.Repeat("y", 1000), "caseSensitive": true}},
		{note: "args.files narrows the search", args: map[string]any{"pattern": "adp-alert", "files": []string{files[0]}}, searched: 1},
	} {
		t.Run(tc.note, func(t *testing.T) {
			start := time.Now()
			resp := a.turn("search_codebase_text", tc.args)
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("the search took %s", took) // a hang, not a benchmark: it took minutes before
			}
			if tc.wantDeny != "" {
				mustDeny(t, resp, tc.wantDeny)
				return
			}
			if len(resp.Denials) > 0 {
				t.Fatalf("denied: %v", resp.DenyReasons)
			}
			if errText, ok := resp.Result["error"]; ok {
				t.Errorf("result.error = %v: refusals are denials", errText)
			}
			if _, got := resp.Result["linesSkipped"]; got != tc.skipped {
				t.Errorf("linesSkipped present = %v, want %v (result %v)", got, tc.skipped, resp.Result)
			}
			if n, _ := resp.Result["filesSearched"].(float64); tc.searched != 0 && int(n) != tc.searched {
				t.Errorf("filesSearched = %v, want %d", n, tc.searched)
			}
		})
	}
}
