package jsrun

import (
	"time"

	"github.com/dlclark/regexp2"
)

// maxMatchTime bounds one regular expression match of a script. goja runs
// the patterns Go's linear-time regexp cannot (backreferences, lookaround)
// on regexp2, which backtracks: `/(a+)+\1b/.test("a".repeat(32))` runs for
// hours inside one native call, where the deadline's interrupt cannot
// reach. regexp2 gives every pattern compiled after this is set the
// timeout; goja reads a match that timed out as no match. The bound is the
// longest deadline a run may have (run_sandboxed_code's timeoutMs is at most
// 10 s), so a match cut short always ends a run whose deadline has passed:
// the run's outcome is a timeout, never a result computed from the
// missing match. An isolated run's process is also killed by its parent.
const maxMatchTime = 10 * time.Second

func init() {
	// regexp2 has no per-pattern option goja exposes; this process's only
	// user of regexp2 is the sandbox.
	regexp2.DefaultMatchTimeout = maxMatchTime
}
