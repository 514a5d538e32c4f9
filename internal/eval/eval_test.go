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

func TestMaterialiseReplacesTheTree(t *testing.T) {
	gitDir, commits := gitRepo(t)
	dir := filepath.Join(t.TempDir(), "ws")
	if err := Materialise(context.Background(), gitDir, commits[0], dir); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "stale.txt"), []byte("left over"), 0o644)
	if err := Materialise(context.Background(), gitDir, commits[1], dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "stale.txt")); !os.IsNotExist(err) {
		t.Error("files from the previous row must not survive")
	}
	data, _ := os.ReadFile(filepath.Join(dir, "src/paste/PasteHandler.ts"))
	if !strings.Contains(string(data), "trim") {
		t.Error("tree should be at the second commit")
	}
	if err := Materialise(context.Background(), gitDir, "0000000000000000000000000000000000000000", dir); err == nil {
		t.Error("an unknown commit should fail")
	}
}
