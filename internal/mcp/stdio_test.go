package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpc/mcpc/internal/protocol"
)

// sdkMarshal marshals v as the SDK marshals results (encoding/json without
// HTML escaping).
func sdkMarshal(t *testing.T, v any) json.RawMessage {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

func mustID(t *testing.T, v any) jsonrpc.ID {
	t.Helper()
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestResponseEncoding: the hand-written response encoding is byte for byte
// jsonrpc.EncodeMessage's, both directly and through Write.
func TestResponseEncoding(t *testing.T) {
	text := `{"verb":"read_file_lines","result":{"lines":["if a < b && c > d {","\t\"quoted\" \\ é 日本 \u2028"]}}`
	toolResult := sdkMarshal(t, &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: text}},
		StructuredContent: json.RawMessage(text),
	})
	wire := &jsonrpc.Error{Code: -32602, Message: "invalid params: <x> & \"y\""}
	tests := []struct {
		note string
		resp *jsonrpc.Response
	}{
		{"numeric id, result object", &jsonrpc.Response{ID: mustID(t, float64(7)), Result: json.RawMessage(`{"a":1,"b":[true,null]}`)}},
		{"id zero", &jsonrpc.Response{ID: mustID(t, float64(0)), Result: json.RawMessage(`{}`)}},
		{"negative and large ids", &jsonrpc.Response{ID: mustID(t, float64(-9007199254740991)), Result: json.RawMessage(`{}`)}},
		{"string id", &jsonrpc.Response{ID: mustID(t, "req-1"), Result: json.RawMessage(`{"ok":true}`)}},
		{"string id with escapes", &jsonrpc.Response{ID: mustID(t, "a\"b\\c\n\t<>&é\u2028\x01"), Result: json.RawMessage(`{}`)}},
		{"empty string id", &jsonrpc.Response{ID: mustID(t, ""), Result: json.RawMessage(`{}`)}},
		{"tool call result", &jsonrpc.Response{ID: mustID(t, float64(3)), Result: toolResult}},
		{"html-escaped result stays as is", &jsonrpc.Response{ID: mustID(t, float64(3)), Result: json.RawMessage(`{"t":"\u003cb\u003e"}`)}},
		{"error without data", &jsonrpc.Response{ID: mustID(t, float64(4)), Error: wire}},
		{"error with data", &jsonrpc.Response{ID: mustID(t, "x"), Error: &jsonrpc.Error{Code: -32002, Message: "resource not found", Data: json.RawMessage(`{"uri":"file:///a<b>"}`)}}},
		{"plain Go error", &jsonrpc.Response{ID: mustID(t, float64(5)), Error: errors.New("boom <&>")}},
		{"wrapped wire error", &jsonrpc.Response{ID: mustID(t, float64(6)), Error: fmt.Errorf("calling tool: %w", wire)}},
		{"result and error", &jsonrpc.Response{ID: mustID(t, float64(8)), Result: json.RawMessage(`{}`), Error: wire}},
		{"neither result nor error", &jsonrpc.Response{ID: mustID(t, float64(9))}},
		{"no id", &jsonrpc.Response{Error: wire}},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			want, err := jsonrpc.EncodeMessage(tt.resp)
			if err != nil {
				t.Fatal(err)
			}
			got, err := appendResponse(nil, tt.resp)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("appendResponse:\n got %s\nwant %s", got, want)
			}
			var out bytes.Buffer
			conn := connect(t, "", &out, 0)
			if err := conn.Write(context.Background(), tt.resp); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), append(want, '\n')) {
				t.Fatalf("Write:\n got %q\nwant %q", out.Bytes(), append(want, '\n'))
			}
		})
	}
}

// TestWriteOtherMessages: requests and notifications are EncodeMessage's.
func TestWriteOtherMessages(t *testing.T) {
	tests := []struct {
		note string
		msg  jsonrpc.Message
	}{
		{"notification", &jsonrpc.Request{Method: "notifications/message", Params: json.RawMessage(`{"level":"info","data":"<x>"}`)}},
		{"server request", &jsonrpc.Request{ID: mustID(t, float64(1)), Method: "roots/list"}},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			want, err := jsonrpc.EncodeMessage(tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := connect(t, "", &out, 0).Write(context.Background(), tt.msg); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != string(want)+"\n" {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}

type nopReadCloser struct{ io.Reader }

func (nopReadCloser) Close() error { return nil }

// countingWriter records each Write call separately.
type countingWriter struct {
	mu     sync.Mutex
	writes [][]byte
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, bytes.Clone(p))
	return len(p), nil
}

func connect(t *testing.T, input string, w io.Writer, maxLine int) sdk.Connection {
	t.Helper()
	tr := &lineTransport{Reader: nopReadCloser{strings.NewReader(input)}, Writer: nopCloser{w}, MaxLineLength: maxLine}
	conn, err := tr.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// readAll reads messages until an error and describes each as
// "method#id" (requests) or "resp#id".
func readAll(conn sdk.Connection) ([]string, error) {
	var got []string
	for {
		msg, err := conn.Read(context.Background())
		if err != nil {
			return got, err
		}
		got = append(got, describe(msg))
	}
}

func describe(msg jsonrpc.Message) string {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		return fmt.Sprintf("%s#%v", m.Method, m.ID.Raw())
	case *jsonrpc.Response:
		return fmt.Sprintf("resp#%v", m.ID.Raw())
	}
	return fmt.Sprintf("%T", msg)
}

func TestRead(t *testing.T) {
	ping := func(id int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id) }
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"pad":"` + strings.Repeat("x", 200<<10) + `"}}`
	tests := []struct {
		note    string
		input   string
		maxLine int
		want    []string
		wantErr string // "" means io.EOF
		wrote   string // what the connection answered by itself, if anything
	}{
		{note: "single messages", input: ping(1) + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + `{"jsonrpc":"2.0","id":"s","result":{}}` + "\n",
			want: []string{"ping#1", "notifications/initialized#<nil>", "resp#s"}},
		{note: "crlf", input: ping(1) + "\r\n" + ping(2) + "\r\n", want: []string{"ping#1", "ping#2"}},
		{note: "blank lines", input: "\n\r\n  \t \n" + ping(1) + "\n\n\n" + ping(2) + "\n \n", want: []string{"ping#1", "ping#2"}},
		{note: "surrounding whitespace", input: "  " + ping(1) + " \t\n", want: []string{"ping#1"}},
		{note: "last line without newline", input: ping(1) + "\n" + ping(2), want: []string{"ping#1", "ping#2"}},
		{note: "empty input", input: ""},
		{note: "line longer than the read buffer", input: big + "\n" + ping(2) + "\n", want: []string{"tools/call#1", "ping#2"}},
		{note: "line at the limit", input: ping(1) + "\n", maxLine: len(ping(1)), want: []string{"ping#1"}},
		{note: "too long line", input: ping(1) + "\n" + ping(22) + "\n" + ping(3) + "\n", maxLine: len(ping(1)), want: []string{"ping#1", "ping#3"},
			wrote: `{"jsonrpc":"2.0","id":22,"error":{"code":-32600,"message":"invalid request: inbound JSON-RPC frame exceeded the configured maximum line length"}}` + "\n"},
		{note: "too long line beyond the read buffer", input: big + "\n" + ping(2) + "\n", maxLine: 100 << 10, want: []string{"ping#2"}, wrote: `"code":-32600`},
		{note: "too long last line", input: big, maxLine: 100 << 10, wrote: `"code":-32600`},
		{note: "no limit", input: big + "\n", maxLine: -1, want: []string{"tools/call#1"}},
		// A line that is no message is answered with an error, and reading goes on.
		{note: "invalid json", input: `{"jsonrpc":"2.0",` + "\n" + ping(2) + "\n", want: []string{"ping#2"},
			wrote: `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: unmarshaling jsonrpc message: unexpected EOF"}}` + "\n"},
		{note: "bad version tag", input: `{"jsonrpc":"1.0","id":1,"method":"ping"}` + "\n" + ping(2) + "\n", want: []string{"ping#2"},
			wrote: `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: invalid message version tag \"1.0\"; expected \"2.0\""}}` + "\n"},
		{note: "a request reusing an id in flight", input: ping(7) + "\n" + ping(7) + "\n" + ping(8) + "\n", want: []string{"ping#7", "ping#8"},
			wrote: `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"invalid request: request id 7 is in use by a request not yet answered"}}`},
		{note: "null id", input: `{"jsonrpc":"2.0","id":null,"method":"ping"}` + "\n" + ping(2) + "\n", want: []string{"ping#2"},
			wrote: `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a request's id must not be null"}}`},
		{note: "fractional id", input: `{"jsonrpc":"2.0","id":1.5,"method":"ping"}` + "\n" + ping(2) + "\n", want: []string{"ping#2"},
			wrote: `{"jsonrpc":"2.0","id":1.5,"error":{"code":-32600,"message":"invalid request: an id must be a string or an integer within ±2^53"}}`},
		{note: "id alone", input: `{"jsonrpc":"2.0","id":14}` + "\n" + ping(2) + "\n", want: []string{"ping#2"},
			wrote: `{"jsonrpc":"2.0","id":14,"error":{"code":-32600,"message":"invalid request: a message with an id needs a method, a result or an error"}}`},
		{note: "trailing data", input: ping(1) + ` {"x":1}` + "\n", wrote: `"id":null,"error":{"code":-32700,"message":"parse error: invalid trailing data at the end of stream"}`},
		{note: "extra brace", input: ping(1) + "}\n", wrote: `"code":-32700`},
		{note: "trailing NUL", input: ping(1) + "\x00\n" + ping(2) + "\n", want: []string{"ping#2"}, wrote: `"code":-32700`},
		{note: "braces inside strings", input: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"a":"}\"{]"}}` + "\n", want: []string{"tools/call#1"}},
		{note: "batch before initialize", input: "[" + ping(1) + ", " + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "," + ping(2) + "]\n" + ping(3) + "\n",
			want: []string{"ping#1", "notifications/initialized#<nil>", "ping#2", "ping#3"}},
		{note: "batch after leading whitespace", input: "  [" + ping(1) + "]\n", want: []string{"ping#1"}},
		{note: "empty batch", input: "[]\n" + ping(2) + "\n", want: []string{"ping#2"}, wrote: `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: empty batch"}}`},
		{note: "invalid batch", input: "[" + ping(1) + ",]\n", wrote: `"code":-32700,"message":"parse error: unmarshaling jsonrpc batch`},
		// A batch's members are judged one by one (TestBatchMembers).
		{note: "batch with duplicate ids", input: "[" + ping(1) + "," + ping(1) + "]\n" + ping(2) + "\n", want: []string{"ping#1", "ping#2"}},
		{note: "batch of bad members only", input: `[{"jsonrpc":"2.0","id":null,"method":"ping"},7]` + "\n" + ping(2) + "\n", want: []string{"ping#2"},
			wrote: `[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a request's id must not be null"}},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,`},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			var out bytes.Buffer
			got, err := readAll(connect(t, tt.input, &out, tt.maxLine))
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("read %v, want %v", got, tt.want)
			}
			if tt.wantErr == "" {
				if err != io.EOF {
					t.Errorf("err %v, want io.EOF", err)
				}
			} else if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err %v, want one containing %q", err, tt.wantErr)
			}
			if !strings.Contains(out.String(), tt.wrote) || (tt.wrote == "" && out.Len() > 0) {
				t.Errorf("wrote %q, want %q", out.String(), tt.wrote)
			}
		})
	}
}

// TestBatchMembers: before 2025-06-18, a batch member that is no message
// the session can take is answered with its error in the batch's answer,
// in its place, and the other members run (JSON-RPC 2.0 §6).
func TestBatchMembers(t *testing.T) {
	ping := func(id int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id) }
	batch := "[" + ping(1) + `,{"jsonrpc":"2.0","id":1.5,"method":"ping"},` + ping(1) + `,{"jsonrpc":"2.0","method":"notifications/initialized"},` + ping(2) + "]"
	var out bytes.Buffer
	conn := connect(t, batch+"\n", &out, 0)
	ctx := context.Background()
	var ids []string
	for range 3 {
		msg, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("read: %v (wrote %q)", err, out.String())
		}
		req := msg.(*jsonrpc.Request)
		ids = append(ids, fmt.Sprint(req.ID.Raw()))
		if req.ID.IsValid() {
			if err := conn.Write(ctx, &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if want := "[1 <nil> 2]"; fmt.Sprint(ids) != want {
		t.Errorf("ran %v, want %v", ids, want)
	}
	want := `[{"jsonrpc":"2.0","id":1,"result":{}},` +
		`{"jsonrpc":"2.0","id":1.5,"error":{"code":-32600,"message":"invalid request: an id must be a string or an integer within ±2^53"}},` +
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: request id 1 is in use by a request not yet answered"}},` +
		`{"jsonrpc":"2.0","id":2,"result":{}}]` + "\n"
	if out.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", out.String(), want)
	}
}

// TestAnsweredIDsAreFree: once a request is answered its id may be used
// again, alone or in a batch.
func TestAnsweredIDsAreFree(t *testing.T) {
	ping := `{"jsonrpc":"2.0","id":7,"method":"ping"}`
	var out bytes.Buffer
	conn := connect(t, ping+"\n"+ping+"\n"+"["+ping+"]\n", &out, 0)
	ctx := context.Background()
	for i := range 3 {
		msg, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("read %d: %v (wrote %q)", i, err, out.String())
		}
		if err := conn.Write(ctx, &jsonrpc.Response{ID: msg.(*jsonrpc.Request).ID, Result: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if strings.Contains(out.String(), "error") {
		t.Errorf("an answered id was refused: %q", out.String())
	}
}

// TestIDFreeWhenAnswerLeaves: a client that reuses an id the moment it
// reads the answer must find it free, so the id is released before the
// answer reaches the writer, not after.
func TestIDFreeWhenAnswerLeaves(t *testing.T) {
	ping := `{"jsonrpc":"2.0","id":7,"method":"ping"}`
	w := &idWatcher{}
	conn := connect(t, ping+"\n", w, 0)
	w.conn = conn.(*lineConn)
	ctx := context.Background()
	msg, err := conn.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w.id = msg.(*jsonrpc.Request).ID
	if err := conn.Write(ctx, &jsonrpc.Response{ID: w.id, Result: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if len(w.busyAtWrite) != 1 || w.busyAtWrite[0] {
		t.Errorf("id 7 still in use when its answer was written (writes: %v)", w.busyAtWrite)
	}
}

// idWatcher notes, at each write, whether id is still held as unanswered.
type idWatcher struct {
	conn        *lineConn
	id          jsonrpc.ID
	busyAtWrite []bool
}

func (w *idWatcher) Write(p []byte) (int, error) {
	w.conn.mu.Lock()
	w.busyAtWrite = append(w.busyAtWrite, w.conn.unanswered[w.id])
	w.conn.mu.Unlock()
	return len(p), nil
}

// TestBatchNegotiation: a batch is answered as one array line when the
// negotiated version predates 2025-06-18, and rejected from it on.
func TestBatchNegotiation(t *testing.T) {
	initReq := `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{}}`
	batch := `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`
	tests := []struct {
		note      string
		version   string // "" to not answer initialize
		initError bool   // initialize fails: nothing is negotiated
		wantErr   string
	}{
		{note: "before initialize"},
		{note: "2024-11-05", version: "2024-11-05"},
		{note: "2025-03-26", version: "2025-03-26"},
		{note: "failed initialize", version: "2025-06-18", initError: true},
		{note: "2025-06-18", version: "2025-06-18", wantErr: "batching is not supported in 2025-06-18 and later (request version: 2025-06-18)"},
		{note: "2025-11-25", version: "2025-11-25", wantErr: "(request version: 2025-11-25)"},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			out := &countingWriter{}
			conn := connect(t, initReq+"\n"+batch+"\n"+`{"jsonrpc":"2.0","id":3,"method":"ping"}`+"\n", out, 0)
			ctx := context.Background()
			msg, err := conn.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			id := msg.(*jsonrpc.Request).ID
			if tt.version != "" {
				resp := &jsonrpc.Response{ID: id, Result: json.RawMessage(`{"capabilities":{},"protocolVersion":"` + tt.version + `","serverInfo":{"name":"mcpc","version":"dev"}}`)}
				if tt.initError {
					resp = &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: -32602, Message: "bad"}}
				}
				if err := conn.Write(ctx, resp); err != nil {
					t.Fatal(err)
				}
			}
			got, err := readAll(conn)
			if tt.wantErr != "" {
				// The batch is answered with an error; the session reads on.
				if fmt.Sprint(got) != "[ping#3]" || err != io.EOF {
					t.Fatalf("read %v, %v; want the batch rejected and ping#3 read", got, err)
				}
				reply := string(out.writes[len(out.writes)-1])
				if !strings.Contains(reply, `"id":null,"error":{"code":-32600`) || !strings.Contains(reply, tt.wantErr) {
					t.Fatalf("answered %q; want -32600 with %q", reply, tt.wantErr)
				}
				return
			}
			if want := "[ping#1 notifications/initialized#<nil> tools/list#2 ping#3]"; fmt.Sprint(got) != want || err != io.EOF {
				t.Fatalf("read %v, %v; want %s, EOF", got, err, want)
			}
			// Answered out of order, the batch's responses are held and
			// written as one line in request order.
			before := len(out.writes)
			r2 := &jsonrpc.Response{ID: mustID(t, float64(2)), Result: json.RawMessage(`{"tools":[]}`)}
			r1 := &jsonrpc.Response{ID: mustID(t, float64(1)), Result: json.RawMessage(`{}`)}
			if err := conn.Write(ctx, r2); err != nil {
				t.Fatal(err)
			}
			if len(out.writes) != before {
				t.Fatalf("wrote %q before the batch was complete", out.writes[before:])
			}
			if err := conn.Write(ctx, r1); err != nil {
				t.Fatal(err)
			}
			if len(out.writes) != before+1 {
				t.Fatalf("writes %q, want one more", out.writes)
			}
			if got, want := string(out.writes[before]), `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}]`+"\n"; got != want {
				t.Fatalf("batch answer %q, want %q", got, want)
			}
			// A later response to an unrelated request is written alone.
			if err := conn.Write(ctx, &jsonrpc.Response{ID: mustID(t, float64(1)), Result: json.RawMessage(`{}`)}); err != nil {
				t.Fatal(err)
			}
			if got := string(out.writes[len(out.writes)-1]); got != `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n" {
				t.Fatalf("single answer %q", got)
			}
		})
	}
}

// TestConcurrentWrites: concurrent writes are each one whole line and one
// Write call.
func TestConcurrentWrites(t *testing.T) {
	out := &countingWriter{}
	conn := connect(t, "", out, 0)
	var wg sync.WaitGroup
	const n = 64
	for i := range n {
		wg.Go(func() {
			res := json.RawMessage(`{"i":` + fmt.Sprint(i) + `,"pad":"` + strings.Repeat("y", 4096) + `"}`)
			var msg jsonrpc.Message = &jsonrpc.Response{ID: mustID(t, float64(i)), Result: res}
			if i%2 == 1 {
				msg = &jsonrpc.Request{Method: "notifications/progress", Params: res}
			}
			if err := conn.Write(context.Background(), msg); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if len(out.writes) != n {
		t.Fatalf("%d writes, want %d", len(out.writes), n)
	}
	for _, w := range out.writes {
		if !bytes.HasSuffix(w, []byte("\n")) || bytes.Count(w, []byte("\n")) != 1 || !json.Valid(w) {
			t.Fatalf("write is not one JSON line: %.80q", w)
		}
	}
}

// TestCloseUnblocksRead: Close ends a Read waiting on input that never
// comes, as the SDK's connection does, and later calls fail.
func TestCloseUnblocksRead(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	tr := &lineTransport{Reader: nopReadCloser{pr}, Writer: nopCloser{io.Discard}}
	conn, err := tr.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := conn.Read(context.Background())
		errc <- err
	}()
	time.Sleep(20 * time.Millisecond)
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if err != io.EOF {
			t.Fatalf("Read after Close: %v, want io.EOF", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read still blocked after Close")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := conn.Read(ctx); err == nil {
		t.Fatal("Read on a cancelled context succeeded")
	}
	if err := conn.Write(ctx, &jsonrpc.Response{ID: mustID(t, float64(1))}); err == nil {
		t.Fatal("Write on a cancelled context succeeded")
	}
}

type fakeTurner struct{}

func (fakeTurner) Turn(_ context.Context, raw json.RawMessage) (*protocol.TurnResponse, error) {
	return &protocol.TurnResponse{WorkID: "w1", State: "<active> & \"ok\"", DenyReasons: []string{string(raw)}}, nil
}

// session runs a server on transport tr and plays a client script in
// lockstep: each step writes its line and reads the number of lines it
// expects back. It returns the lines the server wrote.
func session(t *testing.T, turner Turner, newTransport func(io.ReadCloser, io.WriteCloser) sdk.Transport, steps []step) []string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- NewServer(turner, Options{}).Run(ctx, newTransport(inR, nopCloser{outW}))
		outW.Close()
	}()
	lines := bufio.NewReader(outR)
	var got []string
	for _, s := range steps {
		if _, err := io.WriteString(inW, s.line+"\n"); err != nil {
			t.Fatal(err)
		}
		for range s.answers {
			line, err := lines.ReadString('\n')
			if err != nil {
				got = append(got, "error: "+err.Error())
				break
			}
			got = append(got, line)
		}
	}
	inW.Close()
	<-done
	rest, _ := io.ReadAll(outR)
	if len(rest) > 0 {
		got = append(got, string(rest))
	}
	return got
}

type step struct {
	line    string
	answers int
}

// TestSameAsIOTransport plays client scripts against the server over the
// SDK's IOTransport and over lineTransport: the server's output must be the
// same bytes. Lines IOTransport ends the session on are left out: there
// lineTransport answers and reads on (TestRead, TestBatchNegotiation).
func TestSameAsIOTransport(t *testing.T) {
	initialize := func(v string) string {
		return `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + v + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	}
	initialized := `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	call := `{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"controller_turn","arguments":{"verb":"read_file_lines","args":{"x":"<&>"}}}}`
	batch := `[{"jsonrpc":"2.0","id":11,"method":"ping"},{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"controller_turn","arguments":{"verb":"v"}}}]`
	tests := []struct {
		note  string
		steps []step
	}{
		{"handshake, list, call", []step{{initialize("2025-11-25"), 1}, {initialized, 0}, {`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 1}, {call, 1}}},
		{"errors", []step{{initialize("2025-11-25"), 1}, {initialized, 0}, {`{"jsonrpc":"2.0","id":2,"method":"nope"}`, 1},
			{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"missing"}}`, 1}, {`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":7}`, 1}}},
		{"unknown version negotiates the newest", []step{{initialize("2099-01-01"), 1}, {initialized, 0}, {call, 1}}},
		{"batch on 2025-03-26", []step{{initialize("2025-03-26"), 1}, {initialized, 0}, {batch, 1}, {call, 1}}},
		{"batch before initialize", []step{{`[{"jsonrpc":"2.0","id":11,"method":"ping"}]`, 1}, {initialize("2025-11-25"), 1}}},
	}
	sdkT := func(r io.ReadCloser, w io.WriteCloser) sdk.Transport { return &sdk.IOTransport{Reader: r, Writer: w} }
	ourT := func(r io.ReadCloser, w io.WriteCloser) sdk.Transport { return &lineTransport{Reader: r, Writer: w} }
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			want := session(t, fakeTurner{}, sdkT, tt.steps)
			got := session(t, fakeTurner{}, ourT, tt.steps)
			if strings.Join(got, "") != strings.Join(want, "") {
				t.Fatalf("lineTransport wrote\n%s\nIOTransport wrote\n%s", strings.Join(got, ""), strings.Join(want, ""))
			}
			if len(got) == 0 {
				t.Fatal("no output")
			}
		})
	}
}

// TestDroppedLineID: the id of a line too long to keep is found at either
// end of it, where clients write it, and only where it is the top-level
// object's own.
func TestDroppedLineID(t *testing.T) {
	huge := strings.Repeat("x", 3*edgeBytes)
	for _, tc := range []struct {
		note, line, want string
	}{
		{note: "first, as the Go and Python SDKs write it", line: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":"` + huge + `"}}`, want: "7"},
		{note: "string id first", line: `{"id":"req-1","jsonrpc":"2.0","params":{"a":"` + huge + `"}}`, want: `"req-1"`},
		{note: "last, as the TypeScript SDK writes it", line: `{"method":"tools/call","params":{"a":"` + huge + `"},"jsonrpc":"2.0","id":12}`, want: "12"},
		{note: "string id last with an escaped quote", line: `{"params":{"a":"` + huge + `"},"id":"a\"b" }`, want: `"a\"b"`},
		{note: "a nested id at the end is not the request's", line: `{"jsonrpc":"2.0","method":"m","params":{"a":"` + huge + `","id":9}}`, want: "null"},
		{note: "an id in a string at the end is not the request's", line: `{"jsonrpc":"2.0","method":"m","params":{"a":"` + huge + `,\"id\":9}"}}`, want: "null"},
		{note: "null id", line: `{"jsonrpc":"2.0","id":null,"params":{"a":"` + huge + `"}}`, want: "null"},
		{note: "in the middle", line: `{"params":{"a":"` + huge + `"},"id":3,"params2":{"b":"` + huge + `"}}`, want: "null"},
		{note: "no object", line: `[` + huge + `]`, want: "null"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			var e lineEdges
			for chunk := range slices.Chunk([]byte(tc.line), 1000) {
				e.extend(chunk)
			}
			if got := string(e.id()); got != tc.want {
				t.Errorf("id %s, want %s", got, tc.want)
			}
		})
	}
}
