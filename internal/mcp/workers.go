package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"

	"github.com/rs/zerolog"

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

func newWorkerTurner(t Turner, log zerolog.Logger) *workerTurner {
	w := &workerTurner{jobs: make(chan turnJob)}
	for range turnWorkers {
		go func() {
			for j := range w.jobs {
				resp, err := safeTurn(t, j, log)
				j.done <- turnResult{resp, err}
			}
		}()
	}
	return w
}

// safeTurn runs one turn, turning a panic into an error for that request
// alone: one process serves every session of its client, and a bug reached
// by one request must not end them all. The store rolls the turn back.
func safeTurn(t Turner, j turnJob, log zerolog.Logger) (resp *protocol.TurnResponse, err error) {
	defer func() {
		if p := recover(); p != nil {
			log.Error().Str("panic", fmt.Sprint(p)).Bytes("stack", debug.Stack()).Msg("a turn panicked; its request gets an error")
			resp, err = nil, fmt.Errorf("internal error: the turn failed (%v) and its store transaction was rolled back", p)
		}
	}()
	return t.Turn(j.ctx, j.raw)
}

// Turn hands the turn to a worker and waits for its answer. A turn is one
// store transaction and always runs to its end, so a cancelled request
// still waits for it, and the turn runs under a context the request's
// cancellation does not reach: a policy evaluation stopped half-way would
// otherwise be recorded, charged and answered as a POLICY_ERROR denial the
// policy never made.
func (w *workerTurner) Turn(ctx context.Context, raw json.RawMessage) (*protocol.TurnResponse, error) {
	done := make(chan turnResult, 1)
	w.jobs <- turnJob{context.WithoutCancel(ctx), raw, done}
	r := <-done
	return r.resp, r.err
}
