// Package clock is mcpc's one clock: every window (reservations, memory
// records' contest and provisional windows, expiresAt) is read on it, in
// the server and in the CLI alike. MCPC_NOW (RFC 3339) fixes it, for tests,
// for people moving through a window without waiting and for replaying a
// decision; otherwise it is the system clock.
package clock

import (
	"fmt"
	"os"
	"time"
)

// EnvVar names the variable that fixes the clock.
const EnvVar = "MCPC_NOW"

// FromEnv returns the clock: a fixed time when MCPC_NOW is set, else
// time.Now. A value that is not RFC 3339 is an error, never a silent
// fallback to the system clock.
func FromEnv() (func() time.Time, error) {
	v := os.Getenv(EnvVar)
	if v == "" {
		return time.Now, nil
	}
	at, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return nil, fmt.Errorf("%s=%q is not an RFC 3339 time: %w", EnvVar, v, err)
	}
	return func() time.Time { return at }, nil
}

// Now reads the clock once, in UTC.
func Now() (time.Time, error) {
	now, err := FromEnv()
	if err != nil {
		return time.Time{}, err
	}
	return now().UTC(), nil
}
