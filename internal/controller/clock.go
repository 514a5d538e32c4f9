package controller

import (
	"time"

	"github.com/mcpc/mcpc/internal/clock"
)

// envClock is the one clock every window reads (reservations, records):
// internal/clock's, which the CLI reads too, so `mcpc memory expire-check`
// and a turn see a record in the same state at the same MCPC_NOW.
func envClock() (func() time.Time, error) { return clock.FromEnv() }
