package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/mcpc/mcpc/examples"
	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/mcp"
)

type demoParams struct {
	*rootParams
	keep bool
}

func newDemoCommand(root *rootParams) *cobra.Command {
	p := &demoParams{rootParams: root}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run a scripted agent session against the bundled example workspace over real stdio",
		Long: `Copies the bundled angular-shop example to a temporary directory (or uses
--workspace when it names an empty or absent directory), starts ` + "`mcpc serve`" + ` on it as
a child process, and drives a whole piece of work through controller_turn as an
MCP client: denied reads, the pack, a rejected and an accepted plan, a patch, a
validation and completion. Each turn is printed.`,
		RunE: func(cmd *cobra.Command, _ []string) error { return p.run(cmd.Context(), cmd) },
	}
	cmd.Flags().BoolVar(&p.keep, "keep", false, "keep the temporary workspace to inspect it")
	return cmd
}

func (p *demoParams) run(ctx context.Context, cmd *cobra.Command) error {
	ws := ""
	if cmd.Flags().Changed("workspace") {
		ws = p.workspace
	} else {
		dir, err := os.MkdirTemp("", "mcpc-demo-*")
		if err != nil {
			return err
		}
		ws = dir
		if !p.keep {
			defer os.RemoveAll(dir)
		}
	}
	if err := copyExample(ws); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "workspace: %s\nserver:    %s serve --workspace %s (stdio)\n\n", ws, self, ws)
	c, err := mcp.Dial(ctx, exec.Command(self, "serve", "--workspace", ws, "--log-level", p.logLevel))
	if err != nil {
		return err
	}
	defer c.Close()
	fmt.Fprintf(out, "MCP protocol %s, tool %s\n\n", c.ProtocolVersion(), mcp.ToolName)
	work, err := demo.Run(ctx, c, out)
	if err != nil {
		return err
	}
	if p.keep || cmd.Flags().Changed("workspace") {
		fmt.Fprintf(out, "explain its denials: mcpc explain-deny --workspace %s --work %s\n", ws, work)
	} else {
		fmt.Fprintln(out, "run `mcpc demo --keep` to keep the workspace and explain its denials with mcpc explain-deny")
	}
	return nil
}

// copyExample writes the embedded example into ws, refusing a non-empty one.
func copyExample(ws string) error {
	if entries, err := os.ReadDir(ws); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty; demo needs a fresh directory", ws)
	}
	return examples.CopyAngularShop(ws)
}
