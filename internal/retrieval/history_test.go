package retrieval

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ticketHistory is the tail of a feature branch: a ticket worked on over
// three commits, with unrelated work in between.
var ticketHistory = []Commit{
	{Subject: "[DURACOM-347] fix html indentation", Files: []string{"src/app/dashboard/dashboard.component.html"}},
	{Subject: "Bump eslint from 8.1 to 8.2", Files: []string{"package.json"}},
	{Subject: "[DURACOM-347] add missing label for library components", Files: []string{
		"src/app/dashboard/dashboard.component.html", "src/app/dashboard/dashboard.component.ts"}},
	{Subject: "[DURACOM-3470] unrelated ticket sharing a prefix", Files: []string{"src/app/orders/orders.service.ts"}},
	{Subject: "DURACOM-347: form labels from the config", Files: []string{"src/app/shared/ui/data-table/data-table.component.ts"}},
}

func TestTicketLane(t *testing.T) {
	for _, tc := range []struct {
		note   string
		prompt string
		want   map[string]float64
	}{
		{"the ticket's commits, the most touched and newest first", "[DURACOM-347] refactor, fix missing label",
			map[string]float64{
				// 1 + 1/2 of 1.5, 1/2 of 1.5, 1/3 of 1.5
				"src/app/dashboard/dashboard.component.html":           1,
				"src/app/dashboard/dashboard.component.ts":             1.0 / 3,
				"src/app/shared/ui/data-table/data-table.component.ts": 2.0 / 9,
			}},
		{"a key is matched whole, not as a prefix", "DURACOM-3470 follow-up",
			map[string]float64{"src/app/orders/orders.service.ts": 1}},
		{"a bracketed key anywhere", "Finish the labels (DURACOM-3470)",
			map[string]float64{"src/app/orders/orders.service.ts": 1}},
		{"a key's shape in running text is a word, not a ticket", "Decode DURACOM-347 as UTF-8", map[string]float64{}},
		{"no key, no lane", "fix missing label for library components", map[string]float64{}},
		{"a key no commit names", "[DURACOM-999] improve labels", map[string]float64{}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			got := ticketLane(tc.prompt, ticketHistory, nil)
			if len(got) != len(tc.want) {
				t.Fatalf("ticketLane = %v, want %v", got, tc.want)
			}
			for f, w := range tc.want {
				if diff := got[f] - w; diff > 1e-9 || diff < -1e-9 {
					t.Errorf("ticketLane[%s] = %v, want %v (all: %v)", f, got[f], w, got)
				}
			}
		})
	}
}

func TestRecentLane(t *testing.T) {
	var history []Commit
	for i := 0; i < recentDepth()+5; i++ {
		history = append(history, Commit{Subject: "work", Files: []string{filepath.Join("f", string(rune('a'+i)))}})
	}
	// The newest commit's file also appears later: it keeps its best weight.
	history[3].Files = append(history[3].Files, "f/a")
	got := recentLane(history)
	for _, tc := range []struct {
		note string
		file string
		want float64
	}{
		{"the newest commit's files count fully", "f/a", 1},
		{"the second's half", "f/b", 0.5},
		{"the last commit read", filepath.Join("f", string(rune('a'+recentDepth()-1))), 1 / float64(recentDepth())},
		{"commits past the depth are not read", filepath.Join("f", string(rune('a'+recentDepth()))), 0},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got[tc.file] != tc.want {
				t.Errorf("recentLane[%s] = %v, want %v", tc.file, got[tc.file], tc.want)
			}
		})
	}
	if got := recentLane(nil); len(got) != 0 {
		t.Errorf("no history, yet %v", got)
	}
}

func TestHistoryNeeded(t *testing.T) {
	if n := HistoryNeeded("[LANG-1830] Avoid repeated regex compilation"); n != ticketDepth {
		t.Errorf("a ticket key reads %d commits, want %d", n, ticketDepth)
	}
	if n := HistoryNeeded("fix lint"); n != coChangeDepth {
		t.Errorf("no key reads %d commits, want the co-change lane's %d", n, coChangeDepth)
	}
}

// TestReadHistory lists a real repository's commits, newest first, merges
// left out and the merged branch's own commits in.
func TestReadHistory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write("src/menu.ts", "export const menu = [];\n")
	write("src/app.ts", "import { menu } from './menu';\n")
	git("add", ".")
	git("commit", "-q", "-m", "[DURACOM-453] add the admin menu")
	git("checkout", "-q", "-b", "side")
	write("src/side.ts", "export const side = 1;\n")
	git("add", ".")
	git("commit", "-q", "-m", "side work")
	git("checkout", "-q", "main")
	write("src/menu.ts", "export const menu = [1];\n")
	git("commit", "-q", "-am", "[DURACOM-453] fix lint")
	git("merge", "-q", "--no-ff", "-m", "Merge branch side", "side")
	write("README.md", "# shop\n")
	git("add", ".")
	git("commit", "-q", "-m", "docs: readme")

	got, err := ReadHistory(context.Background(), dir, "", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	// The commits were made within a second, so only the newest and the
	// root have a place git's date order fixes; the rest are compared as
	// a set.
	want := map[string][]string{
		"docs: readme":                     {"README.md"},
		"[DURACOM-453] fix lint":           {"src/menu.ts"},
		"side work":                        {"src/side.ts"},
		"[DURACOM-453] add the admin menu": {"src/app.ts", "src/menu.ts"},
	}
	if len(got) != len(want) || got[0].Subject != "docs: readme" || got[len(got)-1].Subject != "[DURACOM-453] add the admin menu" {
		t.Fatalf("ReadHistory = %+v, want the four non-merge commits, the readme first", got)
	}
	for _, c := range got {
		if files, ok := want[c.Subject]; !ok || !slices.Equal(c.Files, files) {
			t.Errorf("commit %+v, want one of %v", c, want)
		}
	}
	// A workspace that is a folder of the repository names files from
	// there, and its history is the commits that changed it (not the
	// readme's).
	sub, err := ReadHistory(context.Background(), filepath.Join(dir, "src"), "", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(sub) != 3 || !slices.Equal(sub[2].Files, []string{"app.ts", "menu.ts"}) {
		t.Errorf("ReadHistory(src) = %+v, want the three commits with paths from src", sub)
	}
	if _, err := ReadHistory(context.Background(), t.TempDir(), "", "", 10); err == nil {
		t.Error("a directory that is no repository gave no error")
	}

	// The cache answers while HEAD stays, and reads again once it moves.
	var cache HistoryCache
	for range 2 {
		if c, err := cache.Read(context.Background(), dir, 10); err != nil || len(c) != 4 || c[0].Subject != "docs: readme" {
			t.Fatalf("cache.Read = %+v, %v", c, err)
		}
	}
	if c, _ := cache.Read(context.Background(), dir, 1); len(c) != 1 {
		t.Errorf("cache.Read(1) = %+v, want the latest commit only", c)
	}
	write("src/app.ts", "import { menu } from './menu';\nmenu;\n")
	git("commit", "-q", "-am", "use the menu")
	if c, err := cache.Read(context.Background(), dir, 10); err != nil || len(c) != 5 || c[0].Subject != "use the menu" {
		t.Errorf("after a commit, cache.Read = %+v, %v", c, err)
	}
	if _, err := cache.Read(context.Background(), t.TempDir(), 10); err == nil {
		t.Error("cache.Read of a directory that is no repository gave no error")
	}
}

// TestCappedBuffer: output past the cap is dropped, and the commit whose
// file list it cut is left out rather than read with part of its files.
func TestCappedBuffer(t *testing.T) {
	out := "\x01first\n\na.ts\nb.ts\n\x01second\n\nc.ts\nd.ts\n"
	b := &cappedBuffer{max: strings.Index(out, "d.ts")}
	for _, chunk := range []string{out[:5], out[5:]} {
		if n, err := b.Write([]byte(chunk)); n != len(chunk) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if !b.cut || b.Len() != b.max {
		t.Fatalf("cut %v, kept %d of %d", b.cut, b.Len(), b.max)
	}
	whole := &cappedBuffer{max: len(out)}
	whole.Write([]byte(out))
	if whole.cut || len(parseHistory(whole.Bytes())) != 2 {
		t.Errorf("output within the cap was cut: %v", whole.cut)
	}
}

// TestHistoryLanesRank: a follow-up whose subject names nothing the code
// holds ("fix lint") still gets the files its ticket's earlier commits
// and the latest commit touched, while a prompt whose words find the code
// keeps its text hits first.
func TestHistoryLanesRank(t *testing.T) {
	ix := testIndex(t)
	history := []Commit{
		{Subject: "[ACME-12] show tax per line", Files: []string{"py/billing/tax.py"}},
		{Subject: "[ACME-7] dashboard cards", Files: []string{"src/app/dashboard/dashboard.component.ts"}},
	}
	rank := func(prompt string) []string {
		boost := SideLanes(ix, SideInputs{Prompt: prompt, History: history})
		return files(Rank(ix, Query{Prompt: prompt, Boost: boost}))
	}
	if got := rank("[ACME-7] fix lint"); len(got) == 0 || got[0] != "src/app/dashboard/dashboard.component.ts" {
		t.Errorf("ticket follow-up ranks %v, want the ticket's file first", got)
	}
	if got := rank("fix lint"); !slices.Contains(got, "py/billing/tax.py") {
		t.Errorf("vague follow-up ranks %v, want the latest commit's file in the pack", got)
	}
	got := rank("order summary totals")
	if len(got) == 0 || got[0] == "py/billing/tax.py" {
		t.Errorf("a prompt whose words find code ranks %v: the latest commit's file must not lead", got)
	}
}

func TestTicketKeyIsNoQueryWord(t *testing.T) {
	for _, tc := range []struct {
		note, prompt, term string
		want               bool
	}{
		{"a head key's project code is dropped", "[ACME-7] fix lint", "acme", false},
		{"the rest of the prompt stays", "[ACME-7] fix lint", "lint", true},
		{"a key's shape in running text stays a word", "Decode headers as UTF-8", "utf", true},
	} {
		t.Run(tc.note, func(t *testing.T) {
			got := slices.ContainsFunc(queryTerms(Query{Prompt: tc.prompt}), func(q queryTerm) bool { return q.term == tc.term })
			if got != tc.want {
				t.Errorf("queryTerms(%q) holds %q: %v, want %v", tc.prompt, tc.term, got, tc.want)
			}
		})
	}
}

// TestConfiguredTicketKeys: a tracker whose keys are not PROJ-12
// (connectors.jira.keyPattern "GH-\d+|#\d+"-style, here "[a-z]+#\d+") is
// read by its own pattern, in the prompt, the history and the query words,
// and a bad pattern is an error, not a panic.
func TestConfiguredTicketKeys(t *testing.T) {
	keys, err := NewTicketKeys(`[a-z]+#\d+`)
	if err != nil {
		t.Fatal(err)
	}
	history := []Commit{
		{Subject: "web#41: stream the export", Files: []string{"src/export/stream.ts"}},
		{Subject: "web#4: unrelated, shares a prefix", Files: []string{"src/orders/orders.ts"}},
	}
	got := ticketLane("web#41: fix lint", history, keys)
	if len(got) != 1 || got["src/export/stream.ts"] != 1 {
		t.Errorf("ticketLane with a configured pattern = %v, want the ticket's file only", got)
	}
	if got := ticketLane("web#41: fix lint", history, nil); len(got) != 0 {
		t.Errorf("the default pattern reads %v from keys it does not know", got)
	}
	if n := keys.HistoryNeeded("web#41: fix lint"); n != ticketDepth {
		t.Errorf("a configured key reads %d commits, want %d", n, ticketDepth)
	}
	if slices.ContainsFunc(queryTerms(Query{Prompt: "web#41: fix lint", Tickets: keys}), func(q queryTerm) bool { return q.term == "web" }) {
		t.Error("the configured key's project code is a query word")
	}
	if _, err := NewTicketKeys(`[A-Z`); err == nil {
		t.Error("a pattern that does not compile was accepted")
	}
}
