package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/mcpc/mcpc/internal/app"
)

type indexParams struct {
	*rootParams
	quiet bool
}

func newIndexCommand(root *rootParams) *cobra.Command {
	p := &indexParams{rootParams: root}
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Build or refresh the code index (incremental) and print a JSON summary",
		RunE:  func(cmd *cobra.Command, _ []string) error { return p.run(cmd.Context(), cmd) },
	}
	cmd.Flags().BoolVar(&p.quiet, "quiet", false, "no progress bar even on a terminal")
	return cmd
}

func (p *indexParams) run(ctx context.Context, cmd *cobra.Command) error {
	st, ix, err := app.OpenIndex(p.workspace)
	if err != nil {
		return err
	}
	defer st.Close()
	var progress func(done, total int)
	if !p.quiet && term.IsTerminal(int(os.Stderr.Fd())) {
		last := time.Time{}
		progress = func(done, total int) {
			if time.Since(last) < 100*time.Millisecond && done < total {
				return
			}
			last = time.Now()
			const width = 30
			filled := 0
			if total > 0 {
				filled = done * width / total
			}
			fmt.Fprintf(os.Stderr, "\rindexing [%-*s] %d/%d", width, string(bar(filled)), done, total)
			if done >= total {
				fmt.Fprintln(os.Stderr)
			}
		}
	}
	sum, err := ix.Refresh(ctx, progress)
	if err != nil {
		return err
	}
	return writeJSON(cmd.OutOrStdout(), sum)
}

func bar(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = '='
	}
	return b
}
