package eval

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path"
	"regexp"
	"strings"
)

// MineOptions configures mining a development set from a repository's
// history. A mined set cannot be overfitted the way a hand-picked one can:
// any repository yields a fresh one, so a signal tuned on one set is checked
// on the next.
type MineOptions struct {
	GitDir string // bare git directory (what the fetch tool brings)
	Name   string // owner/name written in each row's repo field
	Rows   int    // rows to emit (default 40)
	// Window is how many eligible commits, newest first, the rows are spread
	// over (default 10*Rows): recent enough to match today's layout, spread
	// so one burst of related commits does not fill the set.
	Window int
	// MaxFiles skips commits touching more files than this (default 12):
	// sweeping refactors and vendored updates have no answerable subject.
	MaxFiles int
	// Scan bounds how many commits of history are read (default 20000).
	Scan int
}

// MinedRow is one row in the shared set's format (shared/eval/retrieval).
type MinedRow struct {
	Repo             string   `json:"repo"`
	Commit           string   `json:"commit"`
	Parent           string   `json:"parent"`
	Date             string   `json:"date"`
	Prompt           string   `json:"prompt"`
	PromptNoScope    string   `json:"prompt_noscope"`
	BodyFirstLine    string   `json:"body_first_line"`
	ChangedFiles     []string `json:"changed_files"`
	AddedSourceFiles []string `json:"added_source_files"`
	AllChangedFiles  []string `json:"all_changed_files"`
}

// sourceExts are the files a pack is for: code, templates and stylesheets.
// Configuration, lock files, docs and data are not gold: a subject rarely
// names them and any agent can list them.
var sourceExts = map[string]bool{
	".ts": true, ".tsx": true, ".js": true, ".jsx": true, ".mjs": true, ".cjs": true,
	".vue": true, ".svelte": true, ".html": true, ".scss": true, ".css": true, ".less": true,
	".go": true, ".py": true, ".java": true, ".kt": true, ".scala": true, ".rb": true,
	".rs": true, ".c": true, ".h": true, ".cc": true, ".cpp": true, ".hpp": true, ".cs": true,
	".php": true, ".swift": true,
}

// IsSourcePath reports whether p is a source file by extension.
func IsSourcePath(p string) bool { return sourceExts[strings.ToLower(path.Ext(p))] }

var testPathRE = regexp.MustCompile(`(^|/)(__tests__|__mocks__|tests?|spec|e2e|cypress|testdata|fixtures?)(/|$)|` +
	`(_test\.go|\.test\.[jt]sx?|\.spec\.[jt]sx?|Test\.java|Tests\.java|IT\.java|_spec\.rb)$|(^|/)(test_[^/]*|[^/]*_tests?)\.py$|(^|/)conftest\.py$`)

// IsTestPath reports whether p is a test, fixture or test helper: the gold
// set is what a change to behaviour touches, and a pack leaves tests out
// unless the task asks for them.
func IsTestPath(p string) bool { return testPathRE.MatchString(p) }

// botSubject matches subjects no person would give as a task: dependency
// bumps, releases, merges, translations synced by a bot.
var botSubject = regexp.MustCompile(`(?i)^(bump |chore\(deps|build\(deps|merge |revert |release |v?\d+\.\d+(\.\d+)?$|new translations|update dependency|\[bot\]|prepare release|update changelog)`)

var scopePrefix = regexp.MustCompile(`^[a-zA-Z]+(\([^)]*\))?!?:\s*`)

// Mine reads gitDir's non-merge history (every parent's) and returns rows whose
// gold set is the non-test source files the commit modified or deleted
// (they exist at the parent, so a pack can hold them).
func Mine(ctx context.Context, opts MineOptions) ([]MinedRow, error) {
	if opts.Rows <= 0 {
		opts.Rows = 40
	}
	if opts.Window <= 0 {
		opts.Window = 10 * opts.Rows
	}
	if opts.MaxFiles <= 0 {
		opts.MaxFiles = 12
	}
	if opts.Scan <= 0 {
		opts.Scan = 20000
	}
	cmd := exec.CommandContext(ctx, "git", "--git-dir="+opts.GitDir, "log", "--no-merges", "--no-renames",
		fmt.Sprintf("-n%d", opts.Scan), "--date=short", "--format=%x01%H %P%x02%ad%x02%s%x02%b%x03", "--name-status", "HEAD")
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	eligible, perr := parseLog(out, opts)
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("eval: git log: %w: %s", err, stderr.String())
	}
	if perr != nil {
		return nil, perr
	}
	return spread(eligible, opts.Rows, opts.Window), nil
}

// spread picks n rows evenly from the newest window eligible ones.
func spread(rows []MinedRow, n, window int) []MinedRow {
	if len(rows) > window {
		rows = rows[:window]
	}
	if len(rows) <= n {
		return rows
	}
	picked := make([]MinedRow, 0, n)
	for i := range n {
		picked = append(picked, rows[i*len(rows)/n])
	}
	return picked
}

func parseLog(r io.Reader, opts MineOptions) ([]MinedRow, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var rows []MinedRow
	for _, rec := range bytes.Split(data, []byte{1}) {
		if len(bytes.TrimSpace(rec)) == 0 {
			continue
		}
		head, files, ok := bytes.Cut(rec, []byte{3})
		if !ok {
			continue
		}
		parts := strings.SplitN(string(head), "\x02", 4)
		if len(parts) < 4 {
			continue
		}
		ids := strings.Fields(parts[0])
		if len(ids) != 2 { // root commit or merge
			continue
		}
		row := MinedRow{Repo: opts.Name, Commit: ids[0], Parent: ids[1], Date: parts[1], Prompt: strings.TrimSpace(parts[2])}
		row.PromptNoScope = scopePrefix.ReplaceAllString(row.Prompt, "")
		row.BodyFirstLine = firstLine(parts[3])
		row.ChangedFiles, row.AddedSourceFiles = []string{}, []string{}
		sc := bufio.NewScanner(bytes.NewReader(files))
		for sc.Scan() {
			status, file, ok := strings.Cut(sc.Text(), "\t")
			if !ok {
				continue
			}
			row.AllChangedFiles = append(row.AllChangedFiles, file)
			if !IsSourcePath(file) || IsTestPath(file) {
				continue
			}
			if strings.HasPrefix(status, "A") {
				row.AddedSourceFiles = append(row.AddedSourceFiles, file)
			} else {
				row.ChangedFiles = append(row.ChangedFiles, file)
			}
		}
		if !answerable(row, opts.MaxFiles) {
			continue
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// answerable keeps commits a person could have asked for in one sentence.
func answerable(row MinedRow, maxFiles int) bool {
	if len(row.ChangedFiles) == 0 || len(row.AllChangedFiles) > maxFiles {
		return false
	}
	if botSubject.MatchString(row.Prompt) || len(strings.Fields(row.PromptNoScope)) < 3 {
		return false
	}
	return true
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// WriteSet writes rows as JSONL.
func WriteSet(w io.Writer, rows []MinedRow) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}
