//go:build !mcpc_failpoints

package controller

import "context"

// failpoint does nothing in a production build: no environment variable
// can make a production mcpc stop between writing a file and recording it
// (failpoint_on.go has the test hook, behind the mcpc_failpoints tag).
func failpoint(string) {}

// failpointSleep does nothing in a production build.
func failpointSleep(string) {}

// failpointError is never an error in a production build.
func failpointError(string) error { return nil }

// failpointStall does nothing in a production build.
func failpointStall(context.Context, string) {}
