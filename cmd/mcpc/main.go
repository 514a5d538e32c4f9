// Command mcpc is the policy-as-code controller for AI coding agents. See
// `mcpc --help` and the README.
package main

import (
	"os"

	"github.com/mcpc/mcpc/internal/cli"
)

func main() {
	os.Exit(cli.Execute())
}
