//go:build !unix

package bench

import "time"

// processCPU is unknown here: the cpu-ns/op metric reads 0.
func processCPU() time.Duration { return 0 }
