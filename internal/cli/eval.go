package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"

	"github.com/spf13/cobra"

	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/eval"
)

type evalParams struct {
	*rootParams
	set, repo, dir string
	rows           int
	robustness     bool
}

type mineParams struct {
	repo, name, out string
	rows, maxFiles  int
}

func newEvalCommand(root *rootParams) *cobra.Command {
	p := &evalParams{rootParams: root}
	cmd := &cobra.Command{Use: "eval", Short: "Measure mcpc against development sets"}
	retr := &cobra.Command{
		Use:   "retrieval",
		Short: "Recall of the initialize_work pack against the files real commits changed",
		Long: `For each row of a JSONL set (see shared/eval/retrieval/README.md) materialise the
repository at the row's parent, index it, run the real initialize_work with the
row's prompt, and report recall@5/10/20 in pack order, full-pack recall and pack
size as JSON on stdout (progress on stderr).`,
		RunE: func(cmd *cobra.Command, _ []string) error { return p.run(cmd) },
	}
	retr.Flags().StringVar(&p.set, "set", "", "JSONL development set (required)")
	retr.Flags().StringVar(&p.repo, "repo", "", "bare git directory holding every row's parent (required)")
	retr.Flags().StringVar(&p.dir, "dir", "", "where to materialise trees (reused across rows); default a temporary directory")
	retr.Flags().IntVar(&p.rows, "rows", 0, "evaluate only the first N rows")
	retr.Flags().BoolVar(&p.robustness, "robustness", false, "also build packs with lexemes derived two ways and report their top-20 overlap")
	_ = retr.MarkFlagRequired("set")
	_ = retr.MarkFlagRequired("repo")
	cmd.AddCommand(retr, newMineCommand())
	return cmd
}

func newMineCommand() *cobra.Command {
	m := &mineParams{}
	cmd := &cobra.Command{
		Use:   "mine",
		Short: "Mine a retrieval set from a repository's real commits",
		Long: `Read a bare git directory's non-merge history and write a JSONL set in the
format of shared/eval/retrieval: prompt = commit subject, gold = the non-test
source files the commit modified (they exist at the parent). Commits touching
more than --max-files files, bot subjects (dependency bumps, releases) and
subjects of fewer than three words are skipped; rows are spread over the
newest eligible commits.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rows, err := eval.Mine(cmd.Context(), eval.MineOptions{GitDir: m.repo, Name: m.name, Rows: m.rows, MaxFiles: m.maxFiles})
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if m.out != "" {
				f, err := os.Create(m.out)
				if err != nil {
					return err
				}
				defer f.Close()
				w = f
			}
			if err := eval.WriteSet(w, rows); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "%d rows\n", len(rows))
			return nil
		},
	}
	cmd.Flags().StringVar(&m.repo, "repo", "", "bare git directory (required)")
	cmd.Flags().StringVar(&m.name, "name", "", "owner/name written in each row (required)")
	cmd.Flags().StringVar(&m.out, "out", "", "output file (default stdout)")
	cmd.Flags().IntVar(&m.rows, "rows", 40, "rows to write")
	cmd.Flags().IntVar(&m.maxFiles, "max-files", 12, "skip commits changing more files")
	_ = cmd.MarkFlagRequired("repo")
	_ = cmd.MarkFlagRequired("name")
	return cmd
}

func (p *evalParams) run(cmd *cobra.Command) error {
	init, closeAll := initializeWorkInit(p.rootParams)
	defer closeAll()
	rep, err := eval.Retrieval(cmd.Context(), eval.Options{
		Set: p.set, Repo: p.repo, Workspace: p.dir, Rows: p.rows, Init: init, Log: os.Stderr, Robustness: p.robustness,
	})
	if err != nil {
		return err
	}
	return writeJSON(cmd.OutOrStdout(), rep)
}

// initializeWorkInit runs the real initialize_work turn on each materialised
// tree: the same pack an agent would get. Workspaces are opened once and
// reused, so the index is refreshed incrementally between rows.
func initializeWorkInit(root *rootParams) (eval.InitFunc, func()) {
	var mu sync.Mutex
	apps := map[string]*app.App{}
	init := func(ctx context.Context, workspace, prompt string, lexemes []string) ([]string, error) {
		mu.Lock()
		a, ok := apps[workspace]
		mu.Unlock()
		if !ok {
			var err error
			if a, err = app.Open(ctx, app.Options{Workspace: workspace, Log: root.logger()}); err != nil {
				return nil, err
			}
			mu.Lock()
			apps[workspace] = a
			mu.Unlock()
		}
		// Bring the index up to the row's tree before the turn, as serve's
		// background refresh does for a live workspace. Inside the turn the
		// refresh runs under the lock's deadline; on a loaded machine it
		// ran out, and the pack was ranked from the previous row's index:
		// that measured the machine's load, not retrieval.
		if _, err := a.Index.Refresh(ctx, nil); err != nil {
			return nil, err
		}
		turn := map[string]any{"verb": "initialize_work", "originalPrompt": prompt}
		if len(lexemes) > 0 {
			turn["args"] = map[string]any{"lexemes": lexemes}
		}
		req, _ := json.Marshal(turn)
		resp, err := a.Controller.Turn(ctx, req)
		if err != nil {
			return nil, err
		}
		if len(resp.Denials) > 0 {
			return nil, fmt.Errorf("initialize_work denied: %s", resp.DenyReasons[0])
		}
		files, _ := resp.ContextPack["files"].([]string)
		return files, nil
	}
	return init, func() {
		for _, a := range apps {
			a.Close()
		}
	}
}
