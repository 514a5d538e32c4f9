package eval

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// InitFunc builds a context pack for prompt in workspace and returns its
// files in rank order. The CLI passes mcpc's real initialize_work.
type InitFunc func(ctx context.Context, workspace, prompt string) ([]string, error)

// Options configures a retrieval evaluation.
type Options struct {
	Set  string // JSONL development set
	Repo string // bare git directory holding every row's parent
	Init InitFunc
	// Workspace is where each parent is materialised; the same directory is
	// reused so an incremental index only re-parses what changed between
	// rows. Default: a temporary directory, removed afterwards.
	Workspace string
	// KeepTrees materialises each parent into its own directory under
	// Workspace and reuses it on later runs: for tuning, where re-extracting
	// and re-indexing forty trees would dominate.
	KeepTrees bool
	// Rows limits the evaluation to the first n rows (0: all).
	Rows int
	// Log receives one progress line per row (nil: silent).
	Log io.Writer
}

// Row is one line of the development set.
type Row struct {
	Repo         string   `json:"repo"`
	Commit       string   `json:"commit"`
	Parent       string   `json:"parent"`
	Date         string   `json:"date"`
	Prompt       string   `json:"prompt"`
	ChangedFiles []string `json:"changed_files"`
}

// RowResult scores one row.
type RowResult struct {
	Commit    string   `json:"commit"`
	Prompt    string   `json:"prompt"`
	Gold      []string `json:"gold"`
	Missed    []string `json:"missed,omitempty"`
	Recall5   float64  `json:"recall5"`
	Recall10  float64  `json:"recall10"`
	Recall20  float64  `json:"recall20"`
	RecallAll float64  `json:"recallAll"`
	PackSize  int      `json:"packSize"`
	Seconds   float64  `json:"seconds"`
	Error     string   `json:"error,omitempty"`
}

// Report is the evaluation's JSON output.
type Report struct {
	Set          string      `json:"set"`
	Rows         int         `json:"rows"`
	Scored       int         `json:"scored"`
	Recall5      float64     `json:"recall5"`
	Recall10     float64     `json:"recall10"`
	Recall20     float64     `json:"recall20"`
	RecallAll    float64     `json:"recallAll"`
	MeanPackSize float64     `json:"meanPackSize"`
	MeanSeconds  float64     `json:"meanSeconds"`
	Results      []RowResult `json:"results"`
}

// Retrieval runs the evaluation described by opts.
func Retrieval(ctx context.Context, opts Options) (Report, error) {
	rep := Report{Set: opts.Set}
	if opts.Init == nil {
		return rep, errors.New("eval: Options.Init is required")
	}
	rows, err := ReadSet(opts.Set)
	if err != nil {
		return rep, err
	}
	if opts.Rows > 0 && opts.Rows < len(rows) {
		rows = rows[:opts.Rows]
	}
	ws := opts.Workspace
	if ws == "" {
		tmp, err := os.MkdirTemp("", "mcpc-eval-")
		if err != nil {
			return rep, err
		}
		defer os.RemoveAll(tmp)
		ws = filepath.Join(tmp, "ws")
	}
	for i, row := range rows {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		res := RowResult{Commit: row.Commit, Prompt: row.Prompt, Gold: row.ChangedFiles}
		tree := ws
		if opts.KeepTrees {
			tree = filepath.Join(ws, row.Parent)
		}
		if _, err := os.Stat(filepath.Join(tree, ".mcpc-eval-complete")); !opts.KeepTrees || err != nil {
			if err := Materialise(ctx, opts.Repo, row.Parent, tree); err != nil {
				return rep, err
			}
			if opts.KeepTrees {
				os.WriteFile(filepath.Join(tree, ".mcpc-eval-complete"), nil, 0o644)
			}
		}
		start := time.Now()
		pack, err := opts.Init(ctx, tree, row.Prompt)
		res.Seconds = time.Since(start).Seconds()
		if err != nil {
			res.Error = err.Error()
		}
		score(&res, pack)
		rep.Results = append(rep.Results, res)
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, "[%d/%d] r@10=%.2f r@20=%.2f pack=%d %.2fs %s\n", i+1, len(rows), res.Recall10, res.Recall20, res.PackSize, res.Seconds, row.Prompt)
		}
	}
	summarise(&rep)
	return rep, nil
}

// ReadSet reads a JSONL development set.
func ReadSet(path string) ([]Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []Row
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var r Row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("eval: %s: %w", path, err)
		}
		rows = append(rows, r)
	}
	return rows, sc.Err()
}

// Materialise replaces dir's content with the tree of commit, from a git
// archive (no history, as the evaluation requires).
func Materialise(ctx context.Context, gitDir, commit, dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	archive := exec.CommandContext(ctx, "git", "--git-dir="+gitDir, "archive", "--format=tar", commit)
	untar := exec.CommandContext(ctx, "tar", "-x", "-C", dir)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	untar.Stdin = pipe
	var archErr, tarErr limitedBuffer
	archive.Stderr, untar.Stderr = &archErr, &tarErr
	if err := untar.Start(); err != nil {
		return err
	}
	if err := archive.Run(); err != nil {
		untar.Wait()
		return fmt.Errorf("eval: git archive %s: %w: %s", commit, err, archErr.String())
	}
	if err := untar.Wait(); err != nil {
		return fmt.Errorf("eval: tar: %w: %s", err, tarErr.String())
	}
	return nil
}

type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := 4096 - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string { return string(l.b) }
