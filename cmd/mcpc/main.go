// Command mcpc is the policy-as-code controller for AI coding agents. See
// `mcpc --help` and the README.
package main

import (
	"os"

	"github.com/mcpc/mcpc/internal/cli"
	"github.com/mcpc/mcpc/internal/jsrun"
)

func main() {
	// A run_sandboxed_code script runs in a process of its own, started
	// from this executable: that process only runs the script.
	if jsrun.ChildMain() {
		return
	}
	if exe, err := os.Executable(); err == nil {
		jsrun.IsolateIn(exe)
	}
	os.Exit(cli.Execute())
}
