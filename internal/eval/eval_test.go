package eval

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestScore(t *testing.T) {
	tests := []struct {
		note               string
		gold, pack         []string
		r5, r10, r20, rAll float64
		missed             []string
	}{
		{note: "hit at rank 1", gold: []string{"a"}, pack: []string{"a", "b"}, r5: 1, r10: 1, r20: 1, rAll: 1},
		{note: "hit beyond 5 counts from @10", gold: []string{"g"}, pack: []string{"1", "2", "3", "4", "5", "g"}, r5: 0, r10: 1, r20: 1, rAll: 1},
		{note: "half the gold found", gold: []string{"a", "z"}, pack: []string{"a"}, r5: 0.5, r10: 0.5, r20: 0.5, rAll: 0.5, missed: []string{"z"}},
		{note: "empty pack", gold: []string{"a"}, r5: 0, r10: 0, r20: 0, rAll: 0, missed: []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			res := RowResult{Gold: tt.gold}
			score(&res, tt.pack)
			got := []float64{res.Recall5, res.Recall10, res.Recall20, res.RecallAll}
			want := []float64{tt.r5, tt.r10, tt.r20, tt.rAll}
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1e-9 {
					t.Errorf("recalls = %v, want %v", got, want)
					break
				}
			}
			if !slices.Equal(res.Missed, tt.missed) {
				t.Errorf("missed = %v, want %v", res.Missed, tt.missed)
			}
		})
	}
}

// gitRepo makes a bare repository with two commits and returns its git
// directory and the commit ids, oldest first.
func gitRepo(t *testing.T) (string, []string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	work := t.TempDir()
	run := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(rel, body string) {
		p := filepath.Join(work, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q")
	write("src/paste/PasteHandler.ts", "export class PasteHandler { handlePaste(html: string) { return html; } }\n")
	write("src/slug/parseDocumentSlug.ts", "export function parseDocumentSlug(url: string) { return url.split('#')[0]; }\n")
	write("src/theme/colors.ts", "export const colors = { primary: 'blue' };\n")
	run("add", ".")
	run("commit", "-qm", "initial")
	first := run("rev-parse", "HEAD")
	write("src/paste/PasteHandler.ts", "export class PasteHandler { handlePaste(html: string) { return html.trim(); } }\n")
	run("commit", "-qam", "fix: trim pasted html")
	second := run("rev-parse", "HEAD")
	return filepath.Join(work, ".git"), []string{first, second}
}

func TestRetrievalOnATinyRepository(t *testing.T) {
	gitDir, commits := gitRepo(t)
	set := filepath.Join(t.TempDir(), "set.jsonl")
	rows := []Row{
		{Repo: "tiny", Commit: commits[1], Parent: commits[0], Prompt: "fix: Heading hash on link dropped when pasting", ChangedFiles: []string{"src/paste/PasteHandler.ts"}},
		{Repo: "tiny", Commit: commits[1], Parent: commits[1], Prompt: "Change primary colors", ChangedFiles: []string{"src/theme/colors.ts"}},
	}
	var lines []string
	for _, r := range rows {
		b, _ := json.Marshal(r)
		lines = append(lines, string(b))
	}
	os.WriteFile(set, []byte(strings.Join(lines, "\n")+"\n"), 0o644)

	dir := t.TempDir()
	init, closeDB, err := RankInit(filepath.Join(dir, "db"), 20)
	if err != nil {
		t.Fatal(err)
	}
	defer closeDB()
	rep, err := Retrieval(context.Background(), Options{Set: set, Repo: gitDir, Init: init, Workspace: filepath.Join(dir, "ws")})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 2 || rep.Scored != 2 {
		t.Fatalf("rows %d scored %d, want 2 and 2", rep.Rows, rep.Scored)
	}
	if rep.Results[0].RecallAll != 1 || rep.Results[1].Recall5 != 1 {
		t.Errorf("want full recall on both rows, got %+v", rep.Results)
	}
	if rep.MeanPackSize <= 0 {
		t.Error("mean pack size should be positive")
	}
}

func TestMaterialiseTreeIsIncrementalAndSkipsMissingBlobs(t *testing.T) {
	gitDir, commits := gitRepo(t)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ws")
	tree, err := MaterialiseTree(ctx, gitDir, commits[0], dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Entries) != 3 || len(tree.Missing) != 0 {
		t.Fatalf("entries %d missing %v, want 3 and none", len(tree.Entries), tree.Missing)
	}
	colors := filepath.Join(dir, "src/theme/colors.ts")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(colors, old, old)
	if _, err := MaterialiseTree(ctx, gitDir, commits[1], dir); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "src/paste/PasteHandler.ts"))
	if !strings.Contains(string(data), "trim") {
		t.Error("tree should be at the second commit")
	}
	if st, _ := os.Stat(colors); !st.ModTime().Equal(old) {
		t.Error("an unchanged file must not be rewritten: the index refreshes incrementally")
	}

	// Remove the blob of colors.ts from the object store, as a partial
	// snapshot would: the tree is still written, without that file.
	out, err := exec.Command("git", "--git-dir="+gitDir, "rev-parse", commits[1]+":src/theme/colors.ts").Output()
	if err != nil {
		t.Fatal(err)
	}
	blob := strings.TrimSpace(string(out))
	if err := os.Remove(filepath.Join(gitDir, "objects", blob[:2], blob[2:])); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(t.TempDir(), "ws2")
	tree, err = MaterialiseTree(ctx, gitDir, commits[1], fresh)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tree.Missing, []string{"src/theme/colors.ts"}) || len(tree.Entries) != 2 {
		t.Errorf("missing %v entries %d, want colors.ts missing and 2 entries", tree.Missing, len(tree.Entries))
	}
	if _, err := MaterialiseTree(ctx, gitDir, "0000000000000000000000000000000000000000", dir); err == nil {
		t.Error("an unknown commit should fail")
	}
}

func TestMineKeepsAnswerableCommits(t *testing.T) {
	gitDir, commits := gitRepo(t)
	rows, err := Mine(context.Background(), MineOptions{GitDir: gitDir, Name: "tiny/tiny"})
	if err != nil {
		t.Fatal(err)
	}
	// The initial commit has no parent; "fix: trim pasted html" qualifies.
	if len(rows) != 1 {
		t.Fatalf("rows = %+v, want one", rows)
	}
	r := rows[0]
	if r.Commit != commits[1] || r.Parent != commits[0] || r.PromptNoScope != "trim pasted html" ||
		!slices.Equal(r.ChangedFiles, []string{"src/paste/PasteHandler.ts"}) {
		t.Errorf("row = %+v", r)
	}
}

func TestTestAndSourcePaths(t *testing.T) {
	tests := []struct {
		note         string
		path         string
		source, test bool
	}{
		{note: "ts source", path: "app/editor/PasteHandler.ts", source: true},
		{note: "jest test", path: "server/models/Collection.test.ts", source: true, test: true},
		{note: "angular spec", path: "src/app/item/item.component.spec.ts", source: true, test: true},
		{note: "go test", path: "modules/caddyhttp/server_test.go", source: true, test: true},
		{note: "python test", path: "hc/api/tests/test_ping.py", source: true, test: true},
		{note: "java test tree", path: "src/test/java/org/apache/commons/lang3/StringUtilsTest.java", source: true, test: true},
		{note: "template", path: "src/app/item/item.component.html", source: true},
		{note: "markdown", path: "docs/README.md"},
		{note: "locale json", path: "shared/i18n/locales/en_US/translation.json"},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			if IsSourcePath(tt.path) != tt.source || IsTestPath(tt.path) != tt.test {
				t.Errorf("%s: source %v test %v, want %v %v", tt.path, IsSourcePath(tt.path), IsTestPath(tt.path), tt.source, tt.test)
			}
		})
	}
}

func TestBM25ReferenceRanksByContentAndPath(t *testing.T) {
	gitDir, commits := gitRepo(t)
	dir := filepath.Join(t.TempDir(), "ws")
	tree, err := MaterialiseTree(context.Background(), gitDir, commits[0], dir)
	if err != nil {
		t.Fatal(err)
	}
	got := NewBM25().Rank(dir, tree, "Heading hash dropped when pasting html", 2)
	if len(got) == 0 || got[0] != "src/paste/PasteHandler.ts" {
		t.Errorf("rank = %v, want PasteHandler.ts first", got)
	}
	got = NewBM25().Rank(dir, tree, "theme", 5)
	if !slices.Equal(got, []string{"src/theme/colors.ts"}) {
		t.Errorf("a path token alone should find its file, got %v", got)
	}
}

func TestLexemeDerivationsAndOverlap(t *testing.T) {
	p := "fix: `ProsemirrorHelper` drops parseDOM rules for toggles"
	if got := LexemesFromIdentifiers(p); !slices.Equal(got, []string{"ProsemirrorHelper", "parseDOM"}) {
		t.Errorf("identifiers = %v", got)
	}
	if got := LexemesFromWords("Fix the Export button"); !slices.Equal(got, []string{"fix", "the", "export", "button"}) {
		t.Errorf("words = %v", got)
	}
	if o := overlap([]string{"a", "b", "c"}, []string{"b", "c", "d"}, 20); math.Abs(o-0.5) > 1e-9 {
		t.Errorf("overlap = %v, want 0.5", o)
	}
}
