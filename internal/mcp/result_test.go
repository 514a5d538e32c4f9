package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestTurnResultEncoding(t *testing.T) {
	for _, tc := range []struct {
		note string
		resp any
	}{
		{note: "plain", resp: map[string]any{"state": "PLANNING", "capabilities": []string{"escalate"}}},
		{note: "html and quotes", resp: map[string]any{"lines": []string{`<sdf-alert [x]="a && b">`, `say "hi" \ there`}}},
		{note: "control and unicode", resp: map[string]any{"text": "tab\there\nnew \u2028 line é 日本 \x01"}},
		{note: "empty object", resp: map[string]any{}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			text, err := json.Marshal(tc.resp)
			if err != nil {
				t.Fatal(err)
			}
			r := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(text)}}, StructuredContent: json.RawMessage(text)}
			got, err := encodeTurnResults(func(context.Context, string, sdk.Request) (sdk.Result, error) { return r, nil })(context.Background(), "tools/call", nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := got.(encodedResult); !ok {
				t.Fatalf("the result was not taken for one-pass encoding: %T", got)
			}
			// The same JSON value, decoded by any client as the SDK's own
			// encoding is; the bytes differ only where the SDK escapes <, >
			// and & in the text (\u003c) and the one pass does not.
			want, have := sdkMarshal(t, r), sdkMarshal(t, got)
			var wantValue, haveValue any
			if err := json.Unmarshal(want, &wantValue); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(have, &haveValue); err != nil {
				t.Fatalf("%v: %s", err, have)
			}
			if !reflect.DeepEqual(wantValue, haveValue) {
				t.Errorf("encodings differ\nSDK:  %s\nours: %s", want, have)
			}
			var back sdk.CallToolResult
			if err := json.Unmarshal(have, &back); err != nil {
				t.Fatal(err)
			}
			var structured any
			_ = json.Unmarshal(text, &structured)
			if back.Content[0].(*sdk.TextContent).Text != string(text) || !reflect.DeepEqual(back.StructuredContent, structured) {
				t.Errorf("the SDK client reads back %+v", back)
			}
		})
	}
}

func TestTurnResultLeavesOthers(t *testing.T) {
	text := `{"a":1}`
	plain := func() *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: json.RawMessage(text)}
	}
	for _, tc := range []struct {
		note   string
		method string
		result sdk.Result
	}{
		{note: "another method", method: "tools/list", result: plain()},
		{note: "error result", method: "tools/call", result: func() sdk.Result { r := plain(); r.IsError = true; return r }()},
		{note: "metadata", method: "tools/call", result: func() sdk.Result { r := plain(); r.Meta = sdk.Meta{"k": "v"}; return r }()},
		{note: "structured differs", method: "tools/call", result: func() sdk.Result { r := plain(); r.StructuredContent = json.RawMessage(`{"a":2}`); return r }()},
		{note: "structured not raw", method: "tools/call", result: func() sdk.Result { r := plain(); r.StructuredContent = map[string]any{"a": 1}; return r }()},
		{note: "two contents", method: "tools/call", result: func() sdk.Result {
			r := plain()
			r.Content = append(r.Content, &sdk.TextContent{Text: "more"})
			return r
		}()},
		{note: "annotated text", method: "tools/call", result: func() sdk.Result {
			r := plain()
			r.Content[0].(*sdk.TextContent).Annotations = &sdk.Annotations{Priority: 1}
			return r
		}()},
	} {
		t.Run(tc.note, func(t *testing.T) {
			got, err := encodeTurnResults(func(context.Context, string, sdk.Request) (sdk.Result, error) { return tc.result, nil })(context.Background(), tc.method, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.result {
				t.Errorf("got %T, want the handler's own result", got)
			}
		})
	}
}

func BenchmarkTurnResultEncoding(b *testing.B) {
	resp := map[string]any{"lines": make([]string, 60), "state": "PLAN_ACCEPTED"}
	for i := range resp["lines"].([]string) {
		resp["lines"].([]string)[i] = `<sdf-alert type="warning" *ngIf="lowStock">Stock is low</sdf-alert>`
	}
	text, _ := json.Marshal(resp)
	r := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(text)}}, StructuredContent: json.RawMessage(text)}
	for _, tc := range []struct {
		note string
		v    any
	}{{"sdk", r}, {"one-pass", encodedResult{Result: r, Content: [1]textContent{{Type: "text", Text: string(text)}}, StructuredContent: text}}} {
		b.Run(tc.note, func(b *testing.B) {
			for b.Loop() {
				var buf bytes.Buffer
				enc := json.NewEncoder(&buf)
				enc.SetEscapeHTML(false)
				_ = enc.Encode(tc.v)
			}
		})
	}
}
