package mcp

import (
	"context"
	"encoding/json"

	"github.com/mcpc/mcpc/internal/protocol"
)

// turnWorkers is how many turns run at once. Turns serialise on the store's
// write lock anyway; more than one lets a slow initialize_work (ranking runs
// before its transaction) overlap with other agents' reads.
const turnWorkers = 4

// workerTurner runs turns on long-lived goroutines. The SDK handles every
// request on a fresh goroutine whose stack starts at a few KB; a turn (the
// request schema check, OPA's recursive evaluator) needs tens of KB, and
// growing a stack by copying it cost about 0.2 ms per read turn, a fifth of
// the turn. A worker's stack stays grown from one turn to the next.
type workerTurner struct {
	jobs chan turnJob
}

type turnJob struct {
	ctx  context.Context
	raw  json.RawMessage
	done chan turnResult
}

type turnResult struct {
	resp *protocol.TurnResponse
	err  error
}

func newWorkerTurner(t Turner) *workerTurner {
	w := &workerTurner{jobs: make(chan turnJob)}
	for range turnWorkers {
		go func() {
			for j := range w.jobs {
				resp, err := t.Turn(j.ctx, j.raw)
				j.done <- turnResult{resp, err}
			}
		}()
	}
	return w
}

// Turn hands the turn to a worker and waits for its answer. A turn is one
// store transaction and always runs to its end, so a cancelled request
// still waits for it.
func (w *workerTurner) Turn(ctx context.Context, raw json.RawMessage) (*protocol.TurnResponse, error) {
	done := make(chan turnResult, 1)
	w.jobs <- turnJob{ctx, raw, done}
	r := <-done
	return r.resp, r.err
}
