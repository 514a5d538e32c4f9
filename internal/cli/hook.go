package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpc/mcpc/internal/hook"
)

type hookParams struct {
	*rootParams
	bundle string
}

// maxHookEvent bounds the event a host sends on stdin.
const maxHookEvent = 4 << 20

func newHookCommand(root *rootParams) *cobra.Command {
	p := &hookParams{rootParams: root}
	cmd := &cobra.Command{
		Use:       "hook claude-code|cursor",
		Short:     "Judge a host's own tool use (its hook event on stdin) against the workspace's active work",
		ValidArgs: []string{string(hook.ClaudeCode), string(hook.Cursor)},
		Args:      cobra.ExactArgs(1),
		Long: `Reads one hook event of the host on stdin and prints the host's answer on
stdout: Claude Code PreToolUse/PostToolUse; Cursor preToolUse/postToolUse
(every tool), beforeReadFile, beforeShellExecution, afterShellExecution,
afterFileEdit and afterMCPExecution (docs/hooks.md). The embedded policy
(mcpc.rules.hook) decides; the event belongs to the work MCPC_WORK_ID names,
else to the work the host session is bound to (an allowed controller_turn
answer the host reported binds it), else to the workspace's one active work.
Events after the fact record the read snapshot, for edits the trace ledger,
and a hook event row. Any error denies. mcpc init wires it into the host.`,
		RunE: func(cmd *cobra.Command, args []string) error { return p.run(cmd, args[0]) },
	}
	cmd.Flags().StringVar(&p.bundle, "bundle", "", "policy bundle (.tar.gz or directory); default the embedded policies")
	return cmd
}

func (p *hookParams) run(cmd *cobra.Command, host string) error {
	// Without --workspace: Claude Code names the project in
	// CLAUDE_PROJECT_DIR; Cursor runs hooks from .cursor/ and names the
	// workspace in the event (workspace_roots), which "" selects.
	ws := p.workspace
	if !cmd.Flags().Changed("workspace") {
		switch {
		case host == string(hook.ClaudeCode) && os.Getenv("CLAUDE_PROJECT_DIR") != "":
			ws = os.Getenv("CLAUDE_PROJECT_DIR")
		case host == string(hook.Cursor):
			ws = ""
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	raw, err := io.ReadAll(io.LimitReader(cmd.InOrStdin(), maxHookEvent+1))
	if err == nil && len(raw) > maxHookEvent {
		err = fmt.Errorf("the hook event is larger than %d bytes", maxHookEvent)
	}
	var answer []byte
	if err == nil {
		answer, _, err = hook.Run(ctx, hook.Options{Host: hook.Host(host), Workspace: ws, WorkID: os.Getenv("MCPC_WORK_ID"), Bundle: p.bundle}, raw)
	} else {
		answer, _, _ = hook.Run(ctx, hook.Options{Host: hook.Host(host)}, nil)
	}
	if err != nil {
		// The answer printed denies; the error goes to stderr for the person.
		fmt.Fprintln(os.Stderr, "mcpc hook:", err)
	}
	_, werr := fmt.Fprintln(cmd.OutOrStdout(), string(answer))
	return werr
}
