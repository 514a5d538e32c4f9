package controller

import (
	"fmt"
	"os"
	"time"
)

// envClock is the one clock every window reads (reservations, records):
// MCPC_NOW (RFC 3339) fixes it, for tests and for replaying a decision;
// otherwise it is the system clock.
func envClock() (func() time.Time, error) {
	v := os.Getenv("MCPC_NOW")
	if v == "" {
		return time.Now, nil
	}
	at, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return nil, fmt.Errorf("MCPC_NOW=%q is not an RFC 3339 time: %w", v, err)
	}
	return func() time.Time { return at }, nil
}
