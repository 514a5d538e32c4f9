package mcp

import (
	"context"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// encodedResult is a controller_turn result in a form encoding/json writes
// in one pass. The SDK's CallToolResult encodes itself through nested
// MarshalJSON calls, and encoding/json re-scans the output of each (the
// TurnResponse as structured content, the text content, the whole result):
// for a 4 KB TurnResponse that is about 20 KB through its compactor, a fifth
// of a read turn. Here the text is escaped once and the structured content
// checked once. The embedded sdk.Result (the SDK's own result) keeps it an
// sdk.Result to everything that handles it before it is encoded; being an
// interface, it brings no MarshalJSON along.
type encodedResult struct {
	sdk.Result        `json:"-"`
	Content           [1]textContent  `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
}

type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// encodeTurnResults is receiving middleware that hands the SDK an encodedResult
// for any tools/call result it can encode exactly; every other result
// (errors, results with metadata, or anything a future SDK adds) goes through
// unchanged.
func encodeTurnResults(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "tools/call" {
			return res, err
		}
		if r, ok := res.(*sdk.CallToolResult); ok {
			if text, plain := plainTurnResult(r); plain {
				return encodedResult{Result: r, Content: [1]textContent{{Type: "text", Text: text}}, StructuredContent: json.RawMessage(text)}, nil
			}
		}
		return res, err
	}
}

// plainTurnResult reports whether r is exactly what the controller_turn
// handler builds (one text content whose text is also the structured
// content, nothing else set) and returns that text.
func plainTurnResult(r *sdk.CallToolResult) (string, bool) {
	if r.Meta != nil || r.IsError || r.InputRequests != nil || r.RequestState != "" || r.NeedsInput() || len(r.Content) != 1 {
		return "", false
	}
	tc, ok := r.Content[0].(*sdk.TextContent)
	if !ok || tc.Meta != nil || tc.Annotations != nil {
		return "", false
	}
	sc, ok := r.StructuredContent.(json.RawMessage)
	if !ok || string(sc) != tc.Text {
		return "", false
	}
	return tc.Text, true
}
