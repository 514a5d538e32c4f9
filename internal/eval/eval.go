package eval

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpc/mcpc/internal/retrieval"
)

// InitFunc builds a context pack for prompt (and the agent's lexemes, may
// be nil) in workspace and returns its files in rank order. The CLI passes
// mcpc's real initialize_work.
type InitFunc func(ctx context.Context, workspace, prompt string, lexemes []string) ([]string, error)

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
	// Robustness builds a second pack per row with the lexemes derived
	// another way and reports how much the two packs overlap: lexemes are
	// a hint, two natural phrasings of one task must not give two packs.
	Robustness bool
}

// Row is one line of the development set.
type Row struct {
	Repo         string   `json:"repo"`
	Commit       string   `json:"commit"`
	Parent       string   `json:"parent"`
	Date         string   `json:"date"`
	Prompt       string   `json:"prompt"`
	ChangedFiles []string `json:"changed_files"`
	BodyFirst    string   `json:"body_first_line"`
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
	// MissingBlobs counts files of the tree absent from the snapshot; the
	// row is scored on the rest.
	MissingBlobs int `json:"missingBlobs,omitempty"`
	// BM25 is the reference ranker's recall on the same tree.
	BM25Recall5  float64 `json:"bm25Recall5"`
	BM25Recall10 float64 `json:"bm25Recall10"`
	BM25Recall20 float64 `json:"bm25Recall20"`
	// Overlap is |A∩B|/|A∪B| of the top-20 of the packs built with the two
	// lexeme derivations (only with Options.Robustness).
	Overlap *float64 `json:"lexemeOverlap20,omitempty"`
	Error   string   `json:"error,omitempty"`
	repo    string
}

// Report is the evaluation's JSON output.
type Report struct {
	Set string `json:"set"`
	// Summary is the figures over every scored row of the set (its fields
	// are the report's own in JSON).
	Summary
	// PerRepo holds the same figures for each repository of the set: a
	// change that helps one repository and hurts another is visible.
	PerRepo map[string]*Summary `json:"perRepo,omitempty"`
	Results []RowResult         `json:"results"`
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
	bm := NewBM25()
	for i, row := range rows {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		res := RowResult{Commit: row.Commit, Prompt: row.Prompt, Gold: row.ChangedFiles, repo: row.Repo}
		tree := ws
		if opts.KeepTrees {
			tree = filepath.Join(ws, row.Parent)
		}
		t, err := MaterialiseTree(ctx, opts.Repo, row.Parent, tree)
		if err != nil {
			// A row whose parent is not in the snapshot is reported, not
			// fatal: the other rows still say something.
			res.Error = err.Error()
			rep.Results = append(rep.Results, res)
			continue
		}
		res.MissingBlobs = len(t.Missing)
		// The tree is written without a .git: the history the workspace
		// had at the parent (the ticket and recent lanes) comes from the
		// mirror. A snapshot too shallow to list it ranks without.
		rowCtx := ctx
		if h, err := retrieval.ReadHistory(ctx, "", opts.Repo, row.Parent, retrieval.HistoryNeeded(row.Prompt)); err == nil {
			rowCtx = retrieval.WithHistory(ctx, h)
		}
		start := time.Now()
		pack, err := opts.Init(rowCtx, tree, row.Prompt, nil)
		res.Seconds = time.Since(start).Seconds()
		if err != nil {
			res.Error = err.Error()
		}
		score(&res, pack)
		var ref RowResult
		ref.Gold = res.Gold
		score(&ref, bm.Rank(tree, t, row.Prompt, 20))
		res.BM25Recall5, res.BM25Recall10, res.BM25Recall20 = ref.Recall5, ref.Recall10, ref.Recall20
		if opts.Robustness && err == nil {
			a, errA := opts.Init(rowCtx, tree, row.Prompt, LexemesFromIdentifiers(row.Prompt))
			b, errB := opts.Init(rowCtx, tree, row.Prompt, LexemesFromWords(row.Prompt))
			if errA == nil && errB == nil {
				o := overlap(a, b, 20)
				res.Overlap = &o
			}
		}
		rep.Results = append(rep.Results, res)
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, "[%d/%d] r@10=%.2f r@20=%.2f bm25@20=%.2f pack=%d %.2fs %s\n", i+1, len(rows), res.Recall10, res.Recall20, res.BM25Recall20, res.PackSize, res.Seconds, row.Prompt)
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

type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := 4096 - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string { return string(l.b) }
