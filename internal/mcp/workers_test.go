package mcp

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpc/mcpc/internal/protocol"
)

// panickyTurner panics on the verb "panic" and answers anything else.
type panickyTurner struct{}

func (panickyTurner) Turn(ctx context.Context, raw json.RawMessage) (*protocol.TurnResponse, error) {
	if strings.Contains(string(raw), `"panic"`) {
		var m map[string]any
		_ = m["x"].(string) // a nil map's missing key: the kind of bug a turn could reach
	}
	return fakeTurner{}.Turn(ctx, raw)
}

// TestPanickingTurnFailsAlone: a turn that panics gets an error answer, and
// the server goes on serving the next request.
func TestPanickingTurnFailsAlone(t *testing.T) {
	call := func(id, verb string) string {
		return `{"jsonrpc":"2.0","id":"` + id + `","method":"tools/call","params":{"name":"controller_turn","arguments":{"verb":"` + verb + `"}}}`
	}
	got := session(t, panickyTurner{}, func(r io.ReadCloser, w io.WriteCloser) sdk.Transport { return &lineTransport{Reader: r, Writer: w} }, []step{
		{`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, 1},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0},
		{call("boom", "panic"), 1},
		{call("after", "read_file_lines"), 1},
	})
	if len(got) != 3 {
		t.Fatalf("want 3 answers, got %d: %q", len(got), got)
	}
	if !strings.Contains(got[1], `"id":"boom"`) || !strings.Contains(got[1], "internal error: the turn failed") {
		t.Errorf("the panicking call got %s", got[1])
	}
	if !strings.Contains(got[2], `"id":"after"`) || !strings.Contains(got[2], `"workId":"w1"`) {
		t.Errorf("the next call got %s", got[2])
	}
}
