//go:build mcpc_failpoints

package controller

import (
	"context"
	"os"
)

// failpointName is MCPC_FAILPOINT, read once: the crash tests' way to end
// the process exactly where a kill -9 could only be aimed at by luck. Only
// a binary built with -tags mcpc_failpoints has it (test/e2e builds one for
// its crash tests); production builds get failpoint_off.go.
var failpointName = os.Getenv("MCPC_FAILPOINT")

// failpoint ends the process, as abruptly as a kill (no deferred function,
// no commit), when MCPC_FAILPOINT names this point.
func failpoint(name string) {
	if failpointName == name {
		os.Exit(86)
	}
}

// failpointStall holds the caller until ctx ends when MCPC_FAILPOINT names
// this point: an edit that outlasts its deadline on any machine, where a
// file built to be slow would be slow only on some.
func failpointStall(ctx context.Context, name string) {
	if failpointName == name {
		<-ctx.Done()
	}
}
