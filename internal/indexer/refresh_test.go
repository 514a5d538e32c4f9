package indexer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestBadInputIsSkippedAndReported(t *testing.T) {
	root := copyWorkspace(t)
	writeFile(t, root, "assets/blob.dat.txt", []byte("PK\x03\x04\x00\x00binary"))
	writeFile(t, root, "legacy/latin1.ts", []byte("export const caf\xe9 = 1;\n"))
	writeFile(t, root, "huge/bundle.ts", bytes.Repeat([]byte("export const x = 1;\n"), 60000))
	writeFile(t, root, "generated/ignored.ts", []byte("export const ignored = 1;\n"))
	writeFile(t, root, "debug.log", []byte("ignored by the workspace .gitignore\n"))
	writeFile(t, root, "node_modules/lib/index.js", []byte("module.exports = {};\n"))
	writeFile(t, root, "logo.png", []byte("\x89PNG"))
	if err := os.Symlink("..", filepath.Join(root, "src", "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("missing.ts", filepath.Join(root, "src", "dangling.ts")); err != nil {
		t.Fatal(err)
	}
	// .gitignore lines cannot bring back mcpc's state or git's data, and a
	// .gitignore that is a FIFO or a link to /dev/zero is skipped, not read.
	gitignore, err := os.ReadFile(filepath.Join(root, ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, ".gitignore", append(gitignore, "\n!/.ai/tmp/\n!.git/\n"...))
	writeFile(t, root, ".ai/tmp/work/w/state.ts", []byte("export const state = 1;\n"))
	writeFile(t, root, ".ai/auth/jira.token", []byte("jira-pat-0123456789\n"))
	writeFile(t, root, "sub/.GIT/hook.ts", []byte("export const hook = 1;\n"))
	writeFile(t, root, "fifo/kept.ts", []byte("export const keptBesideAFIFO = 1;\n"))
	if err := syscall.Mkfifo(filepath.Join(root, "fifo", ".gitignore"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "zero/kept.ts", []byte("export const keptBesideZero = 1;\n"))
	if err := os.Symlink("/dev/zero", filepath.Join(root, "zero", ".gitignore")); err != nil {
		t.Fatal(err)
	}
	ix, sum := indexWorkspace(t, root)
	for _, kept := range []string{"fifo/kept.ts", "zero/kept.ts"} {
		if !ix.HasFile(kept) {
			t.Errorf("%s, beside an unreadable .gitignore, was not indexed", kept)
		}
	}

	problems := map[string]string{}
	for _, p := range sum.Problems {
		problems[p.File] = p.Kind
	}
	tests := []struct {
		note string
		file string
		kind string // "" means neither indexed nor reported
	}{
		{note: "binary content is detected by NUL bytes", file: "assets/blob.dat.txt", kind: ProblemBinary},
		{note: "non-UTF-8 text is reported", file: "legacy/latin1.ts", kind: ProblemNotUTF8},
		{note: "files over MaxFileBytes are reported", file: "huge/bundle.ts", kind: ProblemTooLarge},
		{note: "a symlink back to an ancestor is reported, never followed", file: "src/loop", kind: ProblemSymlink},
		{note: "a dangling symlink is reported, never followed", file: "src/dangling.ts", kind: ProblemSymlink},
		{note: "the workspace .gitignore is honoured", file: "generated/ignored.ts"},
		{note: "gitignore globs are honoured", file: "debug.log"},
		{note: "node_modules is skipped by default", file: "node_modules/lib/index.js"},
		{note: "binary extensions are skipped without reading", file: "logo.png"},
		{note: "mcpc's state is never indexed, whatever .gitignore says", file: ".ai/tmp/work/w/state.ts"},
		{note: "git data is never indexed, in any case", file: "sub/.GIT/hook.ts"},
		{note: "connector credentials are never indexed", file: ".ai/auth/jira.token"},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			if ix.HasFile(tt.file) {
				t.Fatalf("%s was indexed", tt.file)
			}
			if problems[tt.file] != tt.kind {
				t.Errorf("problem for %s = %q, want %q", tt.file, problems[tt.file], tt.kind)
			}
		})
	}
	if got := ix.ParseFailures([]string{"legacy/latin1.ts"}); len(got) != 1 || got[0].Kind != ProblemNotUTF8 {
		t.Errorf("ParseFailures should carry walk problems of the asked files, got %+v", got)
	}
}

func TestVanishedFileIsReported(t *testing.T) {
	res := processFile(newParserSet(), newTermCounter(), nil, job{cand: candidate{Rel: "gone.ts"}, root: t.TempDir(), maxBytes: DefaultMaxFileBytes})
	if res.problem == nil || res.problem.Kind != ProblemVanished {
		t.Fatalf("want a vanished problem, got %+v", res.problem)
	}
}

func TestTemplateParseFailureIsReported(t *testing.T) {
	root := copyWorkspace(t)
	writeFile(t, root, "src/app/broken/broken.component.html", []byte("<div>\n  <adp-card [title]=\"t\">\n  </span></p>\n<<<< @if (x) {\n"))
	ix, sum := indexWorkspace(t, root)
	if sum.ParseErrors == 0 {
		t.Error("summary should count the template's parse error")
	}
	got := ix.ParseFailures([]string{"src/app/broken/broken.component.html", "src/app/dashboard/dashboard.component.html"})
	if len(got) != 1 || got[0].File != "src/app/broken/broken.component.html" || got[0].Kind != ProblemParseError {
		t.Fatalf("ParseFailures = %+v, want one parse_error for the broken template", got)
	}
	if u := ix.Usages("adp-card"); len(u) != 1 {
		t.Errorf("usages before the error should still be extracted, got %+v", u)
	}
}

func TestRefreshIsIncremental(t *testing.T) {
	root := copyWorkspace(t)
	dbDir := t.TempDir()
	ix, err := Open(openDB(t, dbDir), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := ix.Refresh(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if first.Reparsed != first.Files || first.Files == 0 {
		t.Fatalf("cold refresh should parse every file: %+v", first)
	}

	steps := []struct {
		note     string
		change   func()
		reparsed int
		removed  int
	}{
		{note: "nothing changed", change: func() {}, reparsed: 0},
		{note: "touched without a content change", change: func() {
			later := time.Now().Add(time.Hour)
			os.Chtimes(filepath.Join(root, "server/api/format.js"), later, later)
		}, reparsed: 0},
		{note: "one file edited", change: func() {
			writeFile(t, root, "server/api/format.js", []byte("export function formatCurrency(amount) { return amount; }\n"))
		}, reparsed: 1},
		{note: "one file deleted", change: func() {
			os.Remove(filepath.Join(root, "server/api/orders.js"))
		}, removed: 1},
	}
	for _, st := range steps {
		t.Run(st.note, func(t *testing.T) {
			st.change()
			sum, err := ix.Refresh(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Reparsed != st.reparsed || sum.Removed != st.removed {
				t.Errorf("reparsed %d removed %d, want %d and %d", sum.Reparsed, sum.Removed, st.reparsed, st.removed)
			}
		})
	}
	if len(ix.Symbols("formatCurrency")) != 1 || len(ix.Symbols("formatTotal")) != 0 {
		t.Error("symbols should follow the edit")
	}
	// A second process opening the same database sees the same index
	// without parsing anything.
	again, err := Open(openDB(t, dbDir), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Files(), ix.Files()) || len(again.Edges()) != len(ix.Edges()) {
		t.Error("a reopened index should load the persisted files and edges")
	}
	sum, err := again.Refresh(ctx, nil)
	if err != nil || sum.Reparsed != 0 {
		t.Errorf("reopened refresh reparsed %d (err %v), want 0", sum.Reparsed, err)
	}
}

func TestInterruptedRefreshLeavesAConsistentIndex(t *testing.T) {
	root := copyWorkspace(t)
	dbDir := t.TempDir()
	ix, err := Open(openDB(t, dbDir), Options{Root: root, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = ix.Refresh(ctx, func(done, total int) { cancel() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	// A new process picks up where the interrupted one stopped.
	resumed, err := Open(openDB(t, dbDir), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := resumed.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	clean, _ := indexWorkspace(t, root)
	if !slices.Equal(resumed.Files(), clean.Files()) || len(resumed.AllSymbols()) != len(clean.AllSymbols()) || len(resumed.Edges()) != len(clean.Edges()) {
		t.Errorf("resumed index differs from a clean one: %d/%d files, %d/%d symbols",
			len(resumed.Files()), len(clean.Files()), len(resumed.AllSymbols()), len(clean.AllSymbols()))
	}
}

func TestConcurrentRefreshOnSharedDatabase(t *testing.T) {
	root := copyWorkspace(t)
	dbDir := t.TempDir()
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ix, err := Open(openDB(t, dbDir), Options{Root: root})
			if err == nil {
				_, err = ix.Refresh(context.Background(), nil)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Errorf("concurrent refresh: %v", err)
		}
	}
}

func TestProgressReachesTotal(t *testing.T) {
	root := copyWorkspace(t)
	ix, err := Open(openDB(t, t.TempDir()), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	var last [2]int
	if _, err := ix.Refresh(context.Background(), func(done, total int) { last = [2]int{done, total} }); err != nil {
		t.Fatal(err)
	}
	if last[0] != last[1] || last[1] == 0 {
		t.Errorf("last progress %d/%d, want done == total > 0", last[0], last[1])
	}
}

// A cold build parses files while its walk still lists them; its progress
// still has the whole total from its first report, and reports before the
// last batch.
func TestColdProgressHasTheTotalFromTheStart(t *testing.T) {
	root := t.TempDir()
	const n = 3*batchSize + 10
	for i := range n {
		dir := filepath.Join(root, "src", fmt.Sprintf("d%02d", i%40))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.ts", i)), fmt.Appendf(nil, "export const v%d = %d;\n", i, i), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := Open(openDB(t, t.TempDir()), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	var calls [][2]int
	sum, err := ix.Refresh(context.Background(), func(done, total int) { calls = append(calls, [2]int{done, total}) })
	if err != nil {
		t.Fatal(err)
	}
	if sum.Files != n || sum.Reparsed != n {
		t.Fatalf("indexed %d files, re-parsed %d, want %d", sum.Files, sum.Reparsed, n)
	}
	if len(calls) < 2 {
		t.Fatalf("progress %v, want a report before the last batch", calls)
	}
	for _, c := range calls {
		if c[1] != n || c[0] > n {
			t.Errorf("progress %v, want every total %d", calls, n)
			break
		}
	}
}
