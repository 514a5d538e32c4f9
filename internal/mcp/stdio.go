package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineTransport is a newline-delimited JSON-RPC transport over a reader and
// a writer, a cheaper equivalent of the SDK's IOTransport for the server
// side: it reads line by line instead of running a json.Decoder over the
// stream, decodes plain requests itself (decodeLine) and anything else
// with the SDK, only tries to decode a batch when the line is an array, and
// writes responses without re-encoding their already marshaled result.
// Unlike IOTransport, it answers a line it cannot take (malformedError: no
// JSON-RPC message, longer than MaxLineLength, a message the SDK would get
// wrong, a request whose id is in flight, a batch the negotiated version
// forbids) with a JSON-RPC error (-32700 or -32600) and reads on, where
// IOTransport ends the session and drops the answers it has not written
// yet, or never answers.
//
// Close closes Reader and Writer, as IOTransport's connection does; stdio
// passes closers that do nothing.
type lineTransport struct {
	Reader io.ReadCloser
	Writer io.WriteCloser
	// MaxLineLength bounds one inbound line, as sdk.IOTransport's does (a
	// longer one is answered with an error and dropped): 0 selects
	// sdk.DefaultMaxLineLength, a negative value means no cap.
	MaxLineLength int
	// AnswerBeforeEOF holds back the end of input until the requests read
	// before it have been answered, for a client that writes its requests
	// and closes its end at once: the SDK ends the session, with every
	// answer not yet written, as soon as it reads the end. Default false.
	AnswerBeforeEOF bool
}

// Connect implements sdk.Transport.
func (t *lineTransport) Connect(context.Context) (sdk.Connection, error) {
	limit := t.MaxLineLength
	if limit == 0 {
		limit = sdk.DefaultMaxLineLength
	}
	c := &lineConn{
		r:           t.Reader,
		w:           t.Writer,
		incoming:    make(chan lineOrErr),
		closed:      make(chan struct{}),
		answerAtEOF: t.AnswerBeforeEOF,
	}
	// Reads happen on their own goroutine so that Close can unblock a
	// pending Read (stdin cannot be interrupted portably), as in the SDK.
	go c.readLoop(limit)
	return c, nil
}

// errLineTooLong explains the answer to an inbound line longer than the limit.
var errLineTooLong = errors.New("inbound JSON-RPC frame exceeded the configured maximum line length")

// Protocol versions that matter to batching (the SDK's are unexported).
const (
	protocol20250618 = "2025-06-18" // JSON-RPC batches were removed here
	methodInitialize = "initialize"
)

type lineOrErr struct {
	line    []byte
	err     error
	tooLong bool // a line past the limit was read and dropped
	// edges keeps the start and the end of a dropped line, where its id is
	// found (clients write it first or last), so the error names it.
	edges lineEdges
}

// edgeBytes is how much of each end of a dropped line is kept.
const edgeBytes = 4 << 10

type lineEdges struct{ head, tail []byte }

// extend adds the next chunk of a dropped line to its edges.
func (e *lineEdges) extend(chunk []byte) {
	if len(e.head) < edgeBytes {
		e.head = append(e.head, chunk[:min(len(chunk), edgeBytes-len(e.head))]...)
	}
	e.tail = append(e.tail, chunk...)
	if over := len(e.tail) - edgeBytes; over > 0 {
		e.tail = append(e.tail[:0], e.tail[over:]...)
	}
}

// lineConn is lineTransport's connection.
type lineConn struct {
	r io.ReadCloser
	w io.WriteCloser

	incoming chan lineOrErr // from readLoop
	queue    []jsonrpc.Message
	// batchAnswer is the answer of a batch that held nothing to wait for,
	// which decode leaves for Read to write (Read's goroutine only).
	batchAnswer []byte

	answerAtEOF bool         // lineTransport.AnswerBeforeEOF
	lastLine    atomic.Int64 // when readLoop last handed a line on (UnixNano)

	// version is the negotiated protocol version, learnt from the response
	// to initialize; "" until then (batches are allowed, as in the SDK).
	mu       sync.Mutex
	version  string
	initIDs  []jsonrpc.ID                 // initialize requests awaiting their response
	batches  map[jsonrpc.ID]*inboundBatch // requests of an inbound batch, by ID
	watching atomic.Bool                  // initIDs or batches is not empty
	// unanswered holds the ids of the requests read and not yet answered. The
	// SDK turns a request that reuses one into a notification and never
	// answers it; the connection answers it with an error instead.
	unanswered map[jsonrpc.ID]bool

	writeMu sync.Mutex
	wbuf    []byte

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error
}

// inboundBatch collects the answers to one inbound batch so they are
// written together, in request order, as the JSON-RPC spec asks: the
// responses to its requests, and an error for each member that is not a
// message the session can take.
type inboundBatch struct {
	unresolved map[jsonrpc.ID]int // requests not yet answered: their slot in answers
	answers    []json.RawMessage
}

// complete returns the batch's answer line once every request is answered.
func (b *inboundBatch) complete() ([]byte, bool) {
	if len(b.unresolved) > 0 || len(b.answers) == 0 {
		return nil, false
	}
	line := []byte{'['}
	for i, a := range b.answers {
		if i > 0 {
			line = append(line, ',')
		}
		line = append(line, a...)
	}
	return append(line, ']'), true
}

func (c *lineConn) SessionID() string { return "" }

// readLoop feeds incoming with the input's non-blank lines, each a fresh
// slice without its line ending, and stops after the first read error. A
// line past the limit is dropped as it arrives (never held whole) and
// reported, so the session can answer it and go on.
func (c *lineConn) readLoop(limit int) {
	br := bufio.NewReaderSize(c.r, 64<<10)
	var long []byte // a line longer than br's buffer, being assembled
	var edges lineEdges
	dropping := false
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if dropping {
				edges.extend(chunk)
				continue
			}
			long = append(long, chunk...)
			if dropping = limit > 0 && len(long) > limit; dropping {
				edges.extend(long)
				long = nil
			}
			continue
		}
		line := chunk
		if long != nil {
			line = append(long, chunk...)
			long = nil
		}
		tooLong := dropping || limit > 0 && len(bytes.TrimRight(line, "\r\n")) > limit
		if tooLong {
			edges.extend(line)
			edges.tail = bytes.TrimRight(edges.tail, "\r\n")
		}
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case tooLong:
			dropping = false
			if !c.send(lineOrErr{tooLong: true, edges: edges}) {
				return
			}
			edges = lineEdges{}
		case len(bytes.TrimSpace(line)) > 0:
			if !c.send(lineOrErr{line: bytes.Clone(line)}) {
				return
			}
			c.lastLine.Store(time.Now().UnixNano())
		}
		if err != nil {
			if err == io.EOF && c.answerAtEOF {
				c.awaitAnswers()
			}
			c.send(lineOrErr{err: err})
			return
		}
	}
}

// awaitAnswers waits until the lines handed on have been dispatched (a
// short quiet spell after the last one) and no tool call is being handled,
// then for the last answer's write. The last line may only just have been
// handed on: without a newline it arrives together with the end of input.
func (c *lineConn) awaitAnswers() {
	for time.Since(time.Unix(0, c.lastLine.Load())) < 50*time.Millisecond || inflight.Load() > 0 {
		select {
		case <-c.closed:
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
	time.Sleep(20 * time.Millisecond)
}

func (c *lineConn) send(v lineOrErr) bool {
	select {
	case c.incoming <- v:
		return true
	case <-c.closed:
		return false
	}
}

// Read implements sdk.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
	}
	if len(c.queue) > 0 {
		next := c.queue[0]
		c.queue = c.queue[1:]
		return next, nil
	}
	for {
		var line []byte
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case v := <-c.incoming:
			if v.err != nil {
				return nil, v.err
			}
			if v.tooLong {
				if err := c.writeAnswer(errorResponse(v.edges.id(), jsonrpc.CodeInvalidRequest, "invalid request: "+errLineTooLong.Error())); err != nil {
					return nil, err
				}
				continue
			}
			line = v.line
		case <-c.closed:
			return nil, io.EOF
		}
		msg, err := c.decode(line)
		if answer := c.batchAnswer; answer != nil {
			c.batchAnswer = nil
			if err := c.writeAnswer(answer, nil); err != nil {
				return nil, err
			}
		}
		if err == errBatchAnswered {
			continue
		}
		var bad malformedError
		if !errors.As(err, &bad) {
			return msg, err
		}
		// The SDK would end the session on a line it cannot parse, and
		// with it every answer not yet written. JSON-RPC 2.0 answers such
		// a message with an error, and the server reads on.
		if err := c.replyMalformed(line, bad); err != nil {
			return nil, err
		}
	}
}

// malformedError is a line the session cannot take: no JSON-RPC message or
// batch, a message the SDK would get wrong (decodeLine), a request whose id
// is in flight, or a batch that the negotiated version forbids or whose ids
// repeat.
// It is answered with an error and the session reads on.
type malformedError struct{ error }

// decode turns one line into a message, filing what batches and
// initialize need.
func (c *lineConn) decode(line []byte) (jsonrpc.Message, error) {
	if first := firstByte(line); first != '[' {
		msg, err := decodeLine(line)
		if err != nil {
			return nil, malformedError{err}
		}
		// DecodeMessage stops after the object; the SDK rejects more.
		if first == '{' && trailingData(line) {
			return nil, malformedError{errTrailingData}
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.unanswered[req.ID] {
				return nil, malformedError{fmt.Errorf("request id %v is in use by a request not yet answered", req.ID.Raw())}
			}
			c.claim(req.ID)
			if req.Method == methodInitialize && c.version == "" {
				c.initIDs = append(c.initIDs, req.ID)
				c.watching.Store(true)
			}
		}
		return msg, nil
	}
	raws, err := splitBatch(line)
	if err != nil {
		return nil, malformedError{err}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version >= protocol20250618 {
		return nil, malformedError{fmt.Errorf("JSON-RPC batching is not supported in %s and later (request version: %s)", protocol20250618, c.version)}
	}
	// Each member is judged as a line of its own; one that is no message the
	// session can take is answered with its error inside the batch's
	// answer, and the others run.
	batch := &inboundBatch{unresolved: make(map[jsonrpc.ID]int)}
	var msgs []jsonrpc.Message
	for _, raw := range raws {
		msg, err := decodeLine(raw)
		req, isReq := msg.(*jsonrpc.Request)
		if err == nil && isReq && req.ID.IsValid() {
			if _, dup := batch.unresolved[req.ID]; dup || c.unanswered[req.ID] {
				err = fmt.Errorf("request id %v is in use by a request not yet answered", req.ID.Raw())
			}
		}
		if err != nil {
			answer, aerr := errorAnswer(raw, malformedError{err})
			if aerr != nil {
				return nil, aerr
			}
			batch.answers = append(batch.answers, answer)
			continue
		}
		msgs = append(msgs, msg)
		if !isReq || !req.ID.IsValid() {
			continue
		}
		batch.unresolved[req.ID] = len(batch.answers)
		batch.answers = append(batch.answers, nil)
		c.claim(req.ID)
		if c.batches == nil {
			c.batches = make(map[jsonrpc.ID]*inboundBatch)
		}
		c.batches[req.ID] = batch
		if req.Method == methodInitialize && c.version == "" {
			c.initIDs = append(c.initIDs, req.ID)
		}
	}
	c.watching.Store(len(c.initIDs) > 0 || len(c.batches) > 0)
	// A batch of errors and notifications only is answered now, by Read:
	// writing takes writeMu, which is never taken under mu.
	c.batchAnswer, _ = batch.complete()
	if len(msgs) == 0 {
		return nil, errBatchAnswered
	}
	c.queue = msgs[1:]
	return msgs[0], nil
}

// errBatchAnswered is a batch with nothing to run: Read writes its answer,
// the errors of its members, and goes on to the next line.
var errBatchAnswered = errors.New("the batch held no message to run")

// claim marks id in flight; the caller holds mu.
func (c *lineConn) claim(id jsonrpc.ID) {
	if c.unanswered == nil {
		c.unanswered = make(map[jsonrpc.ID]bool)
	}
	c.unanswered[id] = true
}

// replyMalformed answers a line that is not a JSON-RPC message with
// errorAnswer.
func (c *lineConn) replyMalformed(line []byte, bad malformedError) error {
	return c.writeAnswer(errorAnswer(line, bad))
}

func (c *lineConn) writeAnswer(data []byte, err error) error {
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	return c.writeLine(append(c.wbuf[:0], data...))
}

// errorAnswer is the error response to a line (or batch member) that is no
// message the session can take: -32700 when it is not JSON at all, -32600
// when it is JSON but no message, with the line's id when it has a usable
// one, else null.
func errorAnswer(line []byte, bad malformedError) ([]byte, error) {
	code, what := int64(jsonrpc.CodeInvalidRequest), "invalid request"
	if !json.Valid(line) {
		code, what = codeParseError, "parse error"
	}
	id, ok := topLevelID(line)
	if !ok || !usableID(id) {
		id = json.RawMessage("null")
	}
	return errorResponse(id, code, what+": "+bad.Error())
}

// usableID reports whether raw is an id to echo in an error: a string or a
// number, written back exactly as the client sent it.
func usableID(raw json.RawMessage) bool {
	return len(raw) > 0 && (raw[0] == '"' || raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') && json.Valid(raw)
}

func errorResponse(id json.RawMessage, code int64, message string) ([]byte, error) {
	return json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: message}})
}

// tailID matches an id that is the last member of the object a line ends
// with: nested members end before more closing brackets, and a string
// cannot hold the unescaped quotes around "id".
var tailID = regexp.MustCompile(`[,{]\s*"id"\s*:\s*(-?[0-9][0-9.eE+-]*|"(?:[^"\\]|\\.)*")\s*}\s*$`)

// id finds the id of a dropped line in its edges: as the first members of
// the object (the Go and Python SDKs write jsonrpc and id first) or as its
// last (the TypeScript SDK writes method and params first); null when
// neither edge shows it.
func (e lineEdges) id() json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(e.head))
	if tok, err := dec.Token(); err == nil && tok == json.Delim('{') {
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				break
			}
			var value json.RawMessage
			if dec.Decode(&value) != nil {
				break // the value runs past the head
			}
			if key == "id" {
				if usableID(value) {
					return value
				}
				return json.RawMessage("null")
			}
		}
	}
	if m := tailID.FindSubmatch(e.tail); m != nil && usableID(m[1]) {
		return m[1]
	}
	return json.RawMessage("null")
}

// codeParseError is JSON-RPC 2.0's code for a message that is not JSON.
const codeParseError = -32700

var errTrailingData = errors.New("invalid trailing data at the end of stream")

// trailingData reports whether anything but whitespace follows the first
// JSON object on line. It only matches braces outside strings: the object
// itself has been validated by DecodeMessage.
func trailingData(line []byte) bool {
	depth, inString := 0, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return len(bytes.TrimLeft(line[i+1:], " \t\r\n")) > 0
			}
		}
	}
	return false
}

func firstByte(line []byte) byte {
	for _, b := range line {
		switch b {
		case ' ', '\t', '\r', '\n':
		default:
			return b
		}
	}
	return 0
}

// splitBatch splits a JSON array line into its members.
func splitBatch(line []byte) ([]json.RawMessage, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(line, &raws); err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc batch: %w", err)
	}
	if len(raws) == 0 {
		return nil, fmt.Errorf("empty batch")
	}
	return raws, nil
}

// Write implements sdk.Connection; it is safe for concurrent use, and each
// message (or completed batch) is one Write to the underlying writer.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	default:
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()

	resp, isResp := msg.(*jsonrpc.Response)
	if !isResp {
		data, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			return fmt.Errorf("marshaling message: %v", err)
		}
		return c.writeLine(append(c.wbuf[:0], data...))
	}
	// Answered (or filed into its batch's answer): the id is free again,
	// before the answer is written. A client may reuse an id as soon as it
	// reads the answer, and the reader must not refuse it as still in use;
	// freed after the write, about one reuse in thirty was (the SDK frees
	// its own record of a request before it sends, for the same reason).
	c.mu.Lock()
	delete(c.unanswered, resp.ID)
	c.mu.Unlock()
	if c.watching.Load() {
		answer, inBatch, err := c.observe(resp)
		if err != nil {
			return fmt.Errorf("marshaling message: %v", err)
		}
		if inBatch {
			if answer == nil {
				return nil // the batch still has unanswered requests
			}
			return c.writeLine(append(c.wbuf[:0], answer...))
		}
	}
	buf, err := appendResponse(c.wbuf[:0], resp)
	if err != nil {
		return fmt.Errorf("marshaling message: %v", err)
	}
	return c.writeLine(buf)
}

func (c *lineConn) writeLine(buf []byte) error {
	buf = append(buf, '\n')
	if cap(buf) <= 1<<20 { // keep the buffer unless one message made it huge
		c.wbuf = buf[:0]
	}
	_, err := c.w.Write(buf)
	return err
}

// observe learns the negotiated protocol version from the response to
// initialize, and files resp in its inbound batch if it answers one: it
// reports whether resp belongs to a batch, and the batch's answer line once
// every request of it is answered.
func (c *lineConn) observe(resp *jsonrpc.Response) ([]byte, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, id := range c.initIDs {
		if id != resp.ID {
			continue
		}
		c.initIDs = append(c.initIDs[:i], c.initIDs[i+1:]...)
		if resp.Error == nil && c.version == "" {
			var r struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			if json.Unmarshal(resp.Result, &r) == nil && r.ProtocolVersion != "" {
				c.version = r.ProtocolVersion
				c.initIDs = nil
			}
		}
		break
	}
	defer func() { c.watching.Store(len(c.initIDs) > 0 || len(c.batches) > 0) }()
	batch, inBatch := c.batches[resp.ID]
	if !inBatch {
		return nil, false, nil
	}
	encoded, err := appendResponse(nil, resp)
	if err != nil {
		return nil, true, err
	}
	batch.answers[batch.unresolved[resp.ID]] = encoded
	delete(batch.unresolved, resp.ID)
	delete(c.batches, resp.ID)
	answer, _ := batch.complete()
	return answer, true, nil
}

// appendResponse appends resp's wire form to buf, byte for byte what
// jsonrpc.EncodeMessage produces, without re-encoding Result: the SDK
// marshaled it with encoding/json (no HTML escaping), so it is compact JSON
// already and EncodeMessage's pass over it would change nothing.
func appendResponse(buf []byte, resp *jsonrpc.Response) ([]byte, error) {
	buf = append(buf, `{"jsonrpc":"2.0"`...)
	switch id := resp.ID.Raw().(type) {
	case nil:
	case int64:
		buf = append(buf, `,"id":`...)
		buf = strconv.AppendInt(buf, id, 10)
	case string:
		buf = append(buf, `,"id":`...)
		var err error
		if buf, err = appendJSON(buf, id); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("invalid ID type %T", id)
	}
	if len(resp.Result) > 0 {
		buf = append(buf, `,"result":`...)
		buf = append(buf, resp.Result...)
	}
	if resp.Error != nil {
		buf = append(buf, `,"error":`...)
		var err error
		if buf, err = appendJSON(buf, toWireError(resp.Error)); err != nil {
			return nil, err
		}
	}
	return append(buf, '}'), nil
}

// appendJSON appends v encoded as jsonrpc.EncodeMessage encodes its fields:
// encoding/json without HTML escaping.
func appendJSON(buf []byte, v any) ([]byte, error) {
	if s, ok := v.(string); ok && plainString(s) {
		buf = append(buf, '"')
		buf = append(buf, s...)
		return append(buf, '"'), nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return append(buf, bytes.TrimRight(b.Bytes(), "\n")...), nil
}

// plainString reports whether encoding/json writes s as is between quotes.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// toWireError is the SDK's conversion of a response error to its wire form
// (jsonrpc2.toWireError).
func toWireError(err error) *jsonrpc.Error {
	if w, ok := err.(*jsonrpc.Error); ok {
		return w
	}
	w := &jsonrpc.Error{Message: err.Error()}
	var wrapped *jsonrpc.Error
	if errors.As(err, &wrapped) {
		w.Code = wrapped.Code
	}
	return w
}

// Close implements sdk.Connection: it closes the reader and the writer and
// unblocks a pending Read, which then reports io.EOF.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		c.closeErr = errors.Join(c.r.Close(), c.w.Close())
		close(c.closed)
	})
	return c.closeErr
}
