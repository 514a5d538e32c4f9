//go:build mcpc_failpoints

package controller

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"
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

// failpointSleep sleeps MCPC_FAILPOINT_SLEEP_MS (default 5 s) when
// MCPC_FAILPOINT names this point: work under the store's lock made slow,
// as a slow disk or a huge file would, for the lock-bound tests.
func failpointSleep(name string) {
	if failpointName != name {
		return
	}
	d := 5 * time.Second
	if ms, err := strconv.Atoi(os.Getenv("MCPC_FAILPOINT_SLEEP_MS")); err == nil {
		d = time.Duration(ms) * time.Millisecond
	}
	fmt.Fprintf(os.Stderr, "failpoint %s: sleeping %s\n", name, d) // the tests wait for this line
	time.Sleep(d)
}

// failpointError is an error when MCPC_FAILPOINT names this point: a store
// write that fails, for the tests of what a turn answers then.
func failpointError(name string) error {
	if failpointName == name {
		return errors.New("failpoint " + name)
	}
	return nil
}

// failpointStall holds the caller until ctx ends when MCPC_FAILPOINT names
// this point: an edit that outlasts its deadline on any machine, where a
// file built to be slow would be slow only on some.
func failpointStall(ctx context.Context, name string) {
	if failpointName == name {
		<-ctx.Done()
	}
}
