package gcpace

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

var sink [][]byte

func numGC() uint32 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.NumGC
}

// TestPause: a pause collects once enough garbage has piled up, not
// before, and leaves the memory limit at the floor or at its multiple of
// the live heap, whichever is larger.
func TestPause(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	runtime.GC() // the live heap as it is, not as an earlier test left it
	p := Configure(Options{PauseGarbage: 8 << 20, MemoryFloor: 64 << 20, MemoryPerLive: 4})
	defer p.Stop()
	if got := debug.SetGCPercent(1600); got != 1600 {
		t.Errorf("GOGC %d, want the default 1600", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 64<<20 {
		t.Errorf("memory limit %d, want the 64 MiB floor for a small heap", got)
	}

	runtime.GC()
	before := numGC()
	p.Pause() // nothing allocated since
	if numGC() != before {
		t.Error("a pause collected with no garbage to collect")
	}
	for range 16 {
		sink = append(sink, make([]byte, 1<<20))
	}
	sink = nil
	p.Pause()
	if numGC() == before {
		t.Error("a pause did not collect 16 MiB of garbage")
	}

	live := make([]byte, 32<<20) // the limit follows a live heap above the floor
	for i := range live {
		live[i] = 1
	}
	p.Pause()
	if got := debug.SetMemoryLimit(-1); got < 4*32<<20 {
		t.Errorf("memory limit %d with 32 MiB live, want at least %d", got, 4*32<<20)
	}
	runtime.KeepAlive(live)
}

// TestRoomIsCapped: above a large live heap the limit leaves MaxRoom for
// garbage, not MemoryPerLive times the heap.
func TestRoomIsCapped(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	p := Configure(Options{MemoryFloor: 16 << 20, MemoryPerLive: 4, MaxRoom: 8 << 20})
	defer p.Stop()
	live := make([]byte, 64<<20)
	for i := range live {
		live[i] = 1
	}
	runtime.GC()
	p.Pause()
	if got := debug.SetMemoryLimit(-1); got < 64<<20+8<<20 || got > 64<<20+16<<20 {
		t.Errorf("memory limit %d MiB with 64 MiB live and 8 MiB of room, want about 72", got>>20)
	}
	runtime.KeepAlive(live)
}

// TestLimitFollowsCollections: the limit follows a live heap that grew
// past the floor without a Pause, as a turn's does, once a collection has
// measured it.
func TestLimitFollowsCollections(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer Configure(Options{MemoryFloor: 16 << 20, MemoryPerLive: 4}).Stop()
	live := make([]byte, 48<<20)
	for i := range live {
		live[i] = 1
	}
	want := int64(4 * 48 << 20)
	for range 50 { // cleanups run on their own goroutine after the cycle
		runtime.GC()
		if debug.SetMemoryLimit(-1) >= want {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := debug.SetMemoryLimit(-1); got < want {
		t.Errorf("memory limit %d with 48 MiB live after collections, want at least %d", got, want)
	}
	runtime.KeepAlive(live)
}

// TestEnvironmentWins: GOGC and GOMEMLIMIT set by the operator are left
// as they are.
func TestEnvironmentWins(t *testing.T) {
	t.Setenv("GOGC", "200")
	t.Setenv("GOMEMLIMIT", "1GiB")
	defer debug.SetGCPercent(debug.SetGCPercent(200))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 30))
	p := Configure(Options{})
	p.Pause()
	if got := debug.SetGCPercent(200); got != 200 {
		t.Errorf("GOGC %d, want the environment's 200", got)
	}
	if got := debug.SetMemoryLimit(1 << 30); got != 1<<30 {
		t.Errorf("memory limit %d, want the environment's 1 GiB", got)
	}
}

// TestLimitFor: the limit follows the live heap with MaxRoom of room, stops at the Ceiling while MinRoom fits under it, and
// never falls under the floor.
func TestLimitFor(t *testing.T) {
	const mib = 1 << 20
	o := Options{MemoryFloor: 256 * mib, MemoryPerLive: 4, MaxRoom: 192 * mib, Ceiling: 384 * mib, MinRoom: 64 * mib}
	for _, tc := range []struct {
		note       string
		heap, want int64
	}{
		{note: "a small heap: the floor", heap: 20 * mib, want: 256 * mib},
		{note: "MaxRoom above the heap", heap: 90 * mib, want: 282 * mib},
		{note: "held to the ceiling", heap: 250 * mib, want: 384 * mib},
		{note: "the ceiling with less room than MaxRoom", heap: 300 * mib, want: 384 * mib},
		{note: "MinRoom once the ceiling leaves less", heap: 350 * mib, want: 414 * mib},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := o.limitFor(tc.heap); got != tc.want {
				t.Errorf("limit %d MiB for %d MiB live, want %d MiB", got/mib, tc.heap/mib, tc.want/mib)
			}
		})
	}
}
