package controller

import (
	"context"
	"fmt"
	"sync"
)

type indexProgressKey struct{}

// IndexProgress is the callback a code index calls with files done and
// total while a refresh a turn started runs (per batch of files); nil when
// the turn's client asked for no progress. The index adapter passes it to
// the indexer, so a cold build reports its batches as the turn's progress.
func IndexProgress(ctx context.Context) func(done, total int) {
	f, _ := ctx.Value(indexProgressKey{}).(func(done, total int))
	return f
}

// withIndexProgress reports an index refresh as the fractions of step (of
// steps) it reaches: step + done/(total+1), so the refresh never claims the
// next step, and only growing values, as progress notifications must.
func withIndexProgress(ctx context.Context, step, steps float64) context.Context {
	if r, ok := ctx.Value(progressKey{}).(ProgressReporter); !ok || r == nil {
		return ctx
	}
	var (
		mu   sync.Mutex
		last = step
	)
	report := func(done, total int) {
		if total <= 0 {
			return
		}
		frac := step + float64(done)/float64(total+1)
		mu.Lock()
		if frac <= last {
			mu.Unlock()
			return
		}
		last = frac
		mu.Unlock()
		reportProgress(ctx, frac, steps, fmt.Sprintf("indexed %d of %d files", done, total))
	}
	return context.WithValue(ctx, indexProgressKey{}, report)
}
