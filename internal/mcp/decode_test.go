package mcp

import (
	"bytes"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// decodeCases are lines decodeRequest takes (plain) or leaves to the SDK.
var decodeCases = []struct {
	note  string
	line  string
	plain bool
}{
	{note: "call", line: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"controller_turn","arguments":{"verb":"read_file_lines"}}}`, plain: true},
	{note: "string id", line: `{"jsonrpc":"2.0","id":"a-1","method":"ping"}`, plain: true},
	{note: "notification", line: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, plain: true},
	{note: "null id", line: `{"jsonrpc":"2.0","id":null,"method":"ping"}`, plain: true},
	{note: "keys in another order, spaces", line: ` { "params" : [1, {"a": "}]\"{"}] , "method":"x" ,"id": -3, "jsonrpc" :"2.0" } `, plain: true},
	{note: "float id that is an integer", line: `{"jsonrpc":"2.0","id":1e2,"method":"ping"}`, plain: true},
	{note: "empty method", line: `{"jsonrpc":"2.0","id":1,"method":""}`, plain: true},
	{note: "escapes", line: `{"jsonrpc":"2.0","id":"\u00e9\n","method":"a\"b","params":{"s":"\ud83d\ude00"}}`, plain: true},
	{note: "fractional id", line: `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`},
	{note: "huge id", line: `{"jsonrpc":"2.0","id":1e300,"method":"ping"}`},
	{note: "object id", line: `{"jsonrpc":"2.0","id":{},"method":"ping"}`},
	{note: "bool id", line: `{"jsonrpc":"2.0","id":true,"method":"ping"}`},
	{note: "response", line: `{"jsonrpc":"2.0","id":1,"result":{}}`},
	{note: "error response", line: `{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}`},
	{note: "extra key", line: `{"jsonrpc":"2.0","id":1,"method":"ping","result":1}`},
	{note: "repeated key", line: `{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/list"}`},
	{note: "key in another case", line: `{"JSONRPC":"2.0","id":1,"method":"ping"}`},
	{note: "null method", line: `{"jsonrpc":"2.0","id":1,"method":null}`},
	{note: "number method", line: `{"jsonrpc":"2.0","id":1,"method":3}`},
	{note: "null params", line: `{"jsonrpc":"2.0","id":1,"method":"ping","params":null}`},
	{note: "wrong version", line: `{"jsonrpc":"1.0","id":1,"method":"ping"}`},
	{note: "no version", line: `{"id":1,"method":"ping"}`},
	{note: "invalid utf-8", line: "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffng\"}"},
	{note: "not an object", line: `"ping"`},
	{note: "truncated", line: `{"jsonrpc":"2.0","id":1,"method":"ping"`},
	{note: "deep params", line: `{"jsonrpc":"2.0","id":1,"method":"x","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`},
	{note: "params at the depth limit", line: `{"jsonrpc":"2.0","id":1,"method":"x","params":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}`, plain: true},
}

// TestDecodeRequestMatchesSDK: what decodeRequest takes, it decodes to the
// message jsonrpc.DecodeMessage gives, params byte for byte.
func TestDecodeRequestMatchesSDK(t *testing.T) {
	for _, tt := range decodeCases {
		t.Run(tt.note, func(t *testing.T) {
			_, ok := decodeRequest([]byte(tt.line))
			if ok != tt.plain {
				t.Fatalf("plain = %v, want %v", ok, tt.plain)
			}
			checkSameAsSDK(t, []byte(tt.line))
		})
	}
}

// FuzzDecodeRequest holds decodeRequest to DecodeMessage on any line.
func FuzzDecodeRequest(f *testing.F) {
	for _, tt := range decodeCases {
		f.Add([]byte(tt.line))
	}
	f.Fuzz(checkSameAsSDK)
}

func checkSameAsSDK(t *testing.T, line []byte) {
	got, ok := decodeRequest(line)
	if !ok {
		return // the SDK decodes it
	}
	want, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		t.Fatalf("decodeRequest took %q, which the SDK refuses: %v", line, err)
	}
	wantReq, isReq := want.(*jsonrpc.Request)
	if !isReq {
		t.Fatalf("decodeRequest took %q as a request; the SDK reads %T", line, want)
	}
	if got.ID != wantReq.ID || got.Method != wantReq.Method || !bytes.Equal(got.Params, wantReq.Params) {
		t.Fatalf("%q: decoded {%v %q %s}, the SDK {%v %q %s}", line, got.ID.Raw(), got.Method, got.Params,
			wantReq.ID.Raw(), wantReq.Method, wantReq.Params)
	}
}

// BenchmarkDecodeRequest compares decoding a read turn's request line with
// decodeRequest and with jsonrpc.DecodeMessage.
func BenchmarkDecodeRequest(b *testing.B) {
	line := []byte(decodeCases[0].line)
	b.Run("decodeRequest", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := decodeRequest(line); !ok {
				b.Fatal("not plain")
			}
		}
	})
	b.Run("DecodeMessage", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := jsonrpc.DecodeMessage(line); err != nil {
				b.Fatal(err)
			}
		}
	})
}
