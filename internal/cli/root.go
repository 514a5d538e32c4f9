// Package cli holds mcpc's cobra commands. Each command is a params struct,
// its defaults and an init function that binds flags; output meant for
// scripts is JSON on stdout, progress and logs go to stderr.
package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"

	"github.com/mcpc/mcpc/internal/gcpace"
)

// Version is set at build time with -ldflags "-X github.com/mcpc/mcpc/internal/cli.Version=...".
var Version = "dev"

type rootParams struct {
	workspace string
	logLevel  string
}

// Execute runs the CLI and returns the process exit code.
func Execute() int {
	if path := os.Getenv("MCPC_CPUPROFILE"); path != "" { // for performance work
		if f, err := os.Create(path); err == nil {
			_ = pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	if path := os.Getenv("MCPC_TRACE"); path != "" { // scheduling: where a turn waits
		if f, err := os.Create(path); err == nil {
			_ = trace.Start(f)
			defer trace.Stop()
		}
	}
	if path := os.Getenv("MCPC_MEMPROFILE"); path != "" { // allocations, written at exit
		defer func() {
			if f, err := os.Create(path); err == nil {
				_ = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		}()
	}
	cmd := newRootCommand()
	if err := cmd.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "mcpc:", err)
		return 1
	}
	return 0
}

func newRootCommand() *cobra.Command {
	p := &rootParams{workspace: ".", logLevel: "warn"}
	root := &cobra.Command{
		Use:           "mcpc",
		Short:         "Policy-as-code controller for AI coding agents (MCP tool controller_turn)",
		SilenceUsage:  true,
		SilenceErrors: true,
		// A one-shot command (index, graph sync, eval) keeps Go's GOGC but
		// gets serve's memory limit, which follows the live heap with at
		// most 192 MiB of room above it: at GOGC 100 alone a `graph sync`
		// after an edit at 47,550 files, holding a 380 MB live heap, grew
		// to 730-790 MB before collecting. serve paces its own.
		PersistentPreRun: func(cmd *cobra.Command, _ []string) {
			if cmd.Name() != "serve" {
				gcpace.Configure(gcpace.Options{GCPercent: 100})
			}
		},
	}
	root.PersistentFlags().StringVar(&p.workspace, "workspace", p.workspace, "the governed repository")
	root.PersistentFlags().StringVar(&p.logLevel, "log-level", p.logLevel, "stderr log level: debug, info, warn, error")
	root.AddCommand(
		newServeCommand(p), newIndexCommand(p), newExplainCommand(p), newPolicyCommand(p),
		newDemoCommand(p), newEvalCommand(p), newGateCommand(p), newTraceCommand(p), newDashboardCommand(p), newVersionCommand(), newGraphCommand(p),
		newHookCommand(p), newInitCommand(p), newWorksCommand(p),
		newMemoryCommand(p),
	)
	return root
}

func (p *rootParams) logger() *zerolog.Logger {
	lvl, err := zerolog.ParseLevel(p.logLevel)
	if err != nil {
		lvl = zerolog.WarnLevel
	}
	l := zerolog.New(zerolog.ConsoleWriter{Out: os.Stderr, NoColor: true}).Level(lvl).With().Timestamp().Logger()
	return &l
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print mcpc's version",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return writeJSON(cmd.OutOrStdout(), map[string]string{"version": Version, "schemaVersion": "2.0.0"})
		},
	}
}
