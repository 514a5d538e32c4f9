package mcp

import (
	"bytes"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// decodeCases are lines plainRequest takes (plain) or not.
var decodeCases = []struct {
	note  string
	line  string
	plain bool
}{
	{note: "call", line: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"controller_turn","arguments":{"verb":"read_file_lines"}}}`, plain: true},
	{note: "string id", line: `{"jsonrpc":"2.0","id":"a-1","method":"ping"}`, plain: true},
	{note: "notification", line: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, plain: true},
	{note: "null id", line: `{"jsonrpc":"2.0","id":null,"method":"ping"}`},
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

// TestPlainRequestMatchesSDK: what plainRequest takes, it decodes to the
// message jsonrpc.DecodeMessage gives, params byte for byte.
func TestPlainRequestMatchesSDK(t *testing.T) {
	for _, tt := range decodeCases {
		t.Run(tt.note, func(t *testing.T) {
			if _, kind := plainRequest([]byte(tt.line)); (kind == linePlain) != tt.plain {
				t.Fatalf("kind %d, want plain %v", kind, tt.plain)
			}
			checkSameAsSDK(t, []byte(tt.line))
		})
	}
}

// FuzzPlainRequest holds plainRequest to DecodeMessage on any line.
func FuzzPlainRequest(f *testing.F) {
	for _, tt := range decodeCases {
		f.Add([]byte(tt.line))
	}
	f.Fuzz(checkSameAsSDK)
}

func checkSameAsSDK(t *testing.T, line []byte) {
	got, kind := plainRequest(line)
	if kind != linePlain {
		return // the SDK decodes it, or decodeLine refuses it
	}
	want, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		t.Fatalf("plainRequest took %q, which the SDK refuses: %v", line, err)
	}
	wantReq, isReq := want.(*jsonrpc.Request)
	if !isReq {
		t.Fatalf("plainRequest took %q as a request; the SDK reads %T", line, want)
	}
	if got.ID != wantReq.ID || got.Method != wantReq.Method || !bytes.Equal(got.Params, wantReq.Params) {
		t.Fatalf("%q: decoded {%v %q %s}, the SDK {%v %q %s}", line, got.ID.Raw(), got.Method, got.Params,
			wantReq.ID.Raw(), wantReq.Method, wantReq.Params)
	}
}

// TestDecodeLine: the messages the SDK would get wrong are refused, plain
// or not; others decode as the SDK decodes them.
func TestDecodeLine(t *testing.T) {
	for _, tc := range []struct {
		note, line string
		want       error
	}{
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"tools/call"}`, errNullID},
		{"null id on a line that is not plain", `{"jsonrpc":"2.0","id":null,"method":"tools/call","extra":1}`, errNullID},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, errInexactID},
		{"id past 2^53", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, errInexactID},
		{"huge id", `{"jsonrpc":"2.0","id":1e30,"method":"ping"}`, errInexactID},
		{"fractional id on a response", `{"jsonrpc":"2.0","id":1.5,"result":{}}`, errInexactID},
		{"id alone", `{"jsonrpc":"2.0","id":14}`, errIDOnly},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil},
		{"response", `{"jsonrpc":"2.0","id":14,"result":null}`, nil},
		{"error response", `{"jsonrpc":"2.0","id":"s","error":{"code":-1,"message":"x"}}`, nil},
		{"id at 2^53", `{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`, nil},
		{"request that is not plain", `{"jsonrpc":"2.0","id":3,"method":"ping","extra":1}`, nil},
	} {
		t.Run(tc.note, func(t *testing.T) {
			msg, err := decodeLine([]byte(tc.line))
			if err != tc.want {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
			if err == nil {
				want, _ := jsonrpc.DecodeMessage([]byte(tc.line))
				a, _ := jsonrpc.EncodeMessage(msg)
				b, _ := jsonrpc.EncodeMessage(want)
				if !bytes.Equal(a, b) {
					t.Errorf("decoded %s, the SDK %s", a, b)
				}
			}
		})
	}
}

// BenchmarkDecodeLine compares decoding a read turn's request line with
// decodeLine and with jsonrpc.DecodeMessage.
func BenchmarkDecodeLine(b *testing.B) {
	line := []byte(decodeCases[0].line)
	b.Run("decodeLine", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeLine(line); err != nil {
				b.Fatal(err)
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
