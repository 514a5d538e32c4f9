package mcp

import (
	"context"
	"encoding/json"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpc/mcpc/internal/controller"
	"github.com/mcpc/mcpc/internal/protocol"
)

// sessionProgress sends a turn's progress as notifications/progress to the
// client that asked for it with a progress token.
type sessionProgress struct {
	ss    *sdk.ServerSession
	token any

	mu       sync.Mutex
	last     float64
	total    float64
	reported bool
}

var _ controller.ProgressReporter = (*sessionProgress)(nil)

func (p *sessionProgress) Progress(ctx context.Context, done, total float64, message string) {
	p.mu.Lock()
	// Progress must grow; a step that would not (a validation after the
	// pack steps) continues from where the turn is.
	if p.reported && done <= p.last {
		done = p.last + 1
		if total < done {
			total = 0
		}
	}
	p.last, p.total, p.reported = done, total, true
	p.mu.Unlock()
	// A notification that cannot be sent does not fail the turn.
	_ = p.ss.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: p.token, Progress: done, Total: total, Message: message})
}

// finish reports the turn done when it reported anything.
func (p *sessionProgress) finish(ctx context.Context, resp *protocol.TurnResponse) {
	p.mu.Lock()
	reported, total, last := p.reported, p.total, p.last
	p.mu.Unlock()
	if !reported {
		return
	}
	if total < last+1 {
		total = last + 1
	}
	_ = p.ss.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: p.token, Progress: total, Total: total, Message: "done: " + resp.State})
}

// logTurn sends an MCP log message saying what the server did with a turn;
// the SDK sends it only when the client set a logging level.
func logTurn(ctx context.Context, ss *sdk.ServerSession, verb string, resp *protocol.TurnResponse) {
	codes := make([]string, 0, len(resp.Denials))
	for _, d := range resp.Denials {
		codes = append(codes, d.Code)
	}
	level := sdk.LoggingLevel("info")
	if len(codes) > 0 {
		level = "warning"
	}
	//lint:ignore SA1019 logging stays part of the protocol versions mcpc speaks
	_ = ss.Log(ctx, &sdk.LoggingMessageParams{Level: level, Logger: "mcpc", Data: map[string]any{
		"verb": verb, "workId": resp.WorkID, "agentId": resp.AgentID, "state": resp.State,
		"allowed": len(codes) == 0, "denials": codes,
	}})
}

// verbOf reads the verb of a controller_turn request for the log.
func verbOf(args json.RawMessage) string {
	var req struct {
		Verb string `json:"verb"`
	}
	_ = json.Unmarshal(args, &req) // a request that does not decode is logged without a verb
	return req.Verb
}
