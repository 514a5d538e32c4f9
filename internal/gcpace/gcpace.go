// Package gcpace paces Go's garbage collector for a server whose requests
// come in bursts with pauses between them, as an agent's turns do (it
// thinks between them). A collection that starts during a turn slows that
// turn and the few after it, which is what a read turn's p99 is made of;
// one run in a pause costs no turn anything. So the collector is given room
// to run rarely during a burst (a high GOGC), a memory limit keeps that
// room bounded, and Pause collects in the pauses when garbage has piled up.
package gcpace

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// Options configures Configure; each field's zero value selects its default.
type Options struct {
	// GCPercent is the GOGC used during bursts. Default 1600: with a live
	// heap of ~10 MB and ~140 KB allocated per read turn, a collection every
	// ~1,000 back-to-back turns.
	GCPercent int
	// MemoryFloor is the smallest memory limit set; the limit follows the
	// live heap (MemoryPerLive times it, at most MaxRoom above it) above
	// that. Default 256 MiB.
	MemoryFloor int64
	// MemoryPerLive is how many times the live heap the memory limit
	// allows. Default 4.
	MemoryPerLive int64
	// MaxRoom caps the room the limit leaves for garbage above the live
	// heap, however large that is. Default 192 MiB: a collection costs
	// about its live heap's marking, not its garbage, so past a few turns'
	// allocations (a warm turn at 47,550 files allocates about 52 MB) more
	// room buys nothing but memory, and at that size MemoryPerLive's 4x
	// let a serve process grow past 1 GB.
	MaxRoom int64
	// Ceiling is the most the limit rises to while the live heap leaves
	// MinRoom below it: past it the collector works harder instead of the
	// process growing. Default 384 MiB. A new serve process at 47,870
	// files building its view from the facts held about 300 MB live, and
	// with MaxRoom above that peaked at 543 MB resident against a 500 MB
	// target; the room a turn needs is what MinRoom keeps.
	Ceiling int64
	// MinRoom is the least room for garbage the limit leaves above the
	// live heap, the Ceiling notwithstanding. Default 64 MiB: a warm turn
	// at 47,550 files allocates about 52 MB, so it runs without a
	// collection and the pause after it collects.
	MinRoom int64
	// PauseGarbage is how much garbage a pause collects: Pause runs a
	// collection when more than this has been allocated since the last one.
	// Default 16 MiB.
	PauseGarbage uint64
}

// Pacer applies Options and does the work of pauses.
type Pacer struct {
	opts     Options
	ownLimit bool // GOMEMLIMIT is unset, so the limit is ours to move
	stopped  atomic.Bool
	samples  []metrics.Sample
}

// Configure sets GOGC and the memory limit unless the environment sets
// them (GOGC, GOMEMLIMIT win), and returns the Pacer whose Pause the
// server calls between requests.
func Configure(opts Options) *Pacer {
	if opts.GCPercent == 0 {
		opts.GCPercent = 1600
	}
	if opts.MemoryFloor == 0 {
		opts.MemoryFloor = 256 << 20
	}
	if opts.MemoryPerLive == 0 {
		opts.MemoryPerLive = 4
	}
	if opts.MaxRoom == 0 {
		opts.MaxRoom = 192 << 20
	}
	if opts.Ceiling == 0 {
		opts.Ceiling = 384 << 20
	}
	if opts.MinRoom == 0 {
		opts.MinRoom = 64 << 20
	}
	if opts.PauseGarbage == 0 {
		opts.PauseGarbage = 16 << 20
	}
	p := &Pacer{opts: opts, ownLimit: os.Getenv("GOMEMLIMIT") == "", samples: []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
	}}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(opts.GCPercent)
	}
	p.setLimit()
	if p.ownLimit {
		p.armCycle()
	}
	return p
}

// cycleSentinel is garbage made for the collector to find: its cleanup runs
// after the cycle that found it, moves the memory limit to the live heap
// that cycle measured and makes the next one. Without it the limit stayed
// where the last Pause left it while a turn grew the live heap: a new
// serve process at 47,550 files started with the 256 MiB floor and loaded
// a 260 MB index view under it, and its first turn spent 1.9 of its 4.8
// CPU-s collecting, over and over, a heap it could not shrink.
type cycleSentinel struct {
	_ [16]byte // not a tiny allocation, which could share a block and live on
}

func (p *Pacer) armCycle() {
	runtime.AddCleanup(new(cycleSentinel), func(p *Pacer) {
		if p.stopped.Load() {
			return
		}
		p.setLimit()
		p.armCycle()
	}, p)
}

// Stop ends the limit's following of collections; the limit stays where it
// is. For tests and for a process that hands the heap to something else.
func (p *Pacer) Stop() { p.stopped.Store(true) }

// Pause runs a collection when garbage has piled up since the last one,
// then sets the memory limit from the live heap it left. It blocks for the
// collection (a few ms): call it when no request is waiting.
func (p *Pacer) Pause() {
	metrics.Read(p.samples)
	live, objects := p.samples[0].Value.Uint64(), p.samples[1].Value.Uint64()
	if objects > live && objects-live > p.opts.PauseGarbage {
		runtime.GC()
	}
	p.setLimit()
}

// setLimit runs from Pause and from the collector's cleanups, so it reads
// its own samples.
func (p *Pacer) setLimit() {
	if !p.ownLimit {
		return
	}
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	debug.SetMemoryLimit(p.opts.limitFor(int64(live[0].Value.Uint64())))
}

// limitFor is the memory limit for a live heap of heap bytes: MemoryPerLive
// times it with at most MaxRoom of room, held to the Ceiling unless that
// leaves less than MinRoom, and never under MemoryFloor.
func (o Options) limitFor(heap int64) int64 {
	limit := heap + min(heap*(o.MemoryPerLive-1), o.MaxRoom)
	if limit > o.Ceiling {
		limit = max(o.Ceiling, heap+o.MinRoom)
	}
	return max(o.MemoryFloor, limit)
}
