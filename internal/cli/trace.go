package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/ledger"
	"github.com/mcpc/mcpc/internal/store"
)

// traceLedgerPath is the seed 004 trace ledger in a workspace.
const traceLedgerPath = ".orchestration/agent_trace.jsonl"

type traceParams struct {
	*rootParams
	noAnchor bool
}

func newTraceCommand(root *rootParams) *cobra.Command {
	p := &traceParams{rootParams: root}
	cmd := &cobra.Command{Use: "trace", Short: "The tamper-evident trace ledger (.orchestration/agent_trace.jsonl)"}
	verify := &cobra.Command{
		Use:   "verify",
		Short: "Check that no ledger record was rewritten, removed, inserted or reordered",
		Long: `Each ledger record carries its own hash and the hash of the record before it.
verify recomputes the chain and, when the workspace's store exists, checks the
ledger reaches the last record the store saw appended (a removed tail). It prints
a JSON report on stdout, names the first bad line on stderr, and exits 1 when the
ledger does not verify.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return p.verify(cmd) },
	}
	verify.Flags().BoolVar(&p.noAnchor, "no-anchor", false, "check the chain only, not the store's record of the last append")
	cmd.AddCommand(verify)
	return cmd
}

func (p *traceParams) verify(cmd *cobra.Command) error {
	anchor, err := p.anchor()
	if err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(p.workspace, traceLedgerPath), os.O_RDONLY|noFollow, 0)
	var rep ledger.Report
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// No ledger: fine unless the store saw records appended.
		rep, err = ledger.Verify(emptyReader{}, anchor)
	case err != nil:
		return err
	default:
		defer f.Close()
		rep, err = ledger.Verify(f, anchor)
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", traceLedgerPath, err)
	}
	if err := writeJSON(cmd.OutOrStdout(), rep); err != nil {
		return err
	}
	if !rep.OK {
		return fmt.Errorf("%s: line %d: %s (%s)", traceLedgerPath, rep.Problem.Line, rep.Problem.Message, rep.Problem.Kind)
	}
	fmt.Fprintf(os.Stderr, "%s: %d records verified\n", traceLedgerPath, rep.Records)
	return nil
}

// anchor is the ledger head the store recorded, or none when the workspace
// has no store (verify never creates one).
func (p *traceParams) anchor() (ledger.Head, error) {
	path := filepath.Join(p.workspace, app.StorePath)
	if _, err := os.Stat(path); p.noAnchor || errors.Is(err, fs.ErrNotExist) {
		return ledger.Head{}, nil
	}
	st, err := store.Open(path)
	if err != nil {
		return ledger.Head{}, err
	}
	defer st.Close()
	var head ledger.Head
	ctx := context.Background()
	err = st.View(ctx, func(tx *store.Tx) (err error) {
		head.Seq, head.Hash, err = tx.LedgerHead(ctx, traceLedgerPath)
		return err
	})
	return head, err
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, io.EOF }
