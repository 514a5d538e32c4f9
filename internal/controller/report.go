package controller

import "context"

// ProgressReporter receives how far a long turn is (building the index,
// ranking, writing the pack, running a validation). The MCP layer turns it
// into notifications/progress when the client sent a progress token; the
// controller never sees the protocol.
type ProgressReporter interface {
	Progress(ctx context.Context, done, total float64, message string)
}

type progressKey struct{}

// WithProgress attaches a reporter to a turn's context.
func WithProgress(ctx context.Context, r ProgressReporter) context.Context {
	return context.WithValue(ctx, progressKey{}, r)
}

// reportProgress tells the turn's reporter, if it has one, that step done
// of total is reached.
func reportProgress(ctx context.Context, done, total float64, message string) {
	if r, ok := ctx.Value(progressKey{}).(ProgressReporter); ok && r != nil {
		r.Progress(ctx, done, total, message)
	}
}
