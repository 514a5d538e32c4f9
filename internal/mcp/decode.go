package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxNesting is the deepest JSON nesting jsonrpc.DecodeMessage accepts (the
// SDK's internal limit); a deeper line goes to it to be refused there.
const maxNesting = 1000

// Messages the SDK would decode and then get wrong; decodeLine refuses them
// and the connection answers -32600.
var (
	// MCP forbids a null request id; the SDK would run such a request as a
	// notification and answer nothing.
	errNullID = errors.New("a request's id must not be null")
	// The SDK reads numeric ids as float64 and truncates them: 1.5 would be
	// answered as 1, 2^53+1 as 2^53.
	errInexactID = errors.New("an id must be a string or an integer within ±2^53")
	// The SDK reads an id with no method, result or error as a response to
	// nothing and drops it.
	errIDOnly = errors.New("a message with an id needs a method, a result or an error")
)

// decodeLine decodes one line that is not a batch. A plain request or
// notification is read by plainRequest; anything else by the SDK's
// DecodeMessage, so that its rules and error messages apply unchanged.
// Either way, a message the SDK would get wrong is refused with one of the
// errors above.
func decodeLine(line []byte) (jsonrpc.Message, error) {
	switch req, kind := plainRequest(line); kind {
	case linePlain:
		return req, nil
	case lineNullID:
		return nil, errNullID
	case lineInexactID:
		return nil, errInexactID
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, err
	}
	id, hasID := topLevelID(line)
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if hasID && string(id) == "null" {
			return nil, errNullID
		}
	case *jsonrpc.Response:
		if m.Result == nil && m.Error == nil {
			return nil, errIDOnly
		}
	}
	if hasID && len(id) > 0 && (id[0] == '-' || id[0] >= '0' && id[0] <= '9') {
		if _, exact := plainID(id); !exact {
			return nil, errInexactID
		}
	}
	return msg, nil
}

// topLevelID returns the raw value of line's "id" key, matched exactly as
// the SDK matches keys.
func topLevelID(line []byte) (json.RawMessage, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(line, &fields) != nil {
		return nil, false
	}
	id, ok := fields["id"]
	return id, ok
}

// lineKind is what plainRequest made of a line.
type lineKind int

const (
	lineOther     lineKind = iota // not plain: for the SDK's decoder
	linePlain                     // a plain request or notification
	lineNullID                    // a plain line whose id is null
	lineInexactID                 // a plain line whose id is a number no float64 holds exactly as an integer
)

// requestKeys are the keys of a plain request, each with its bit.
var requestKeys = map[string]uint8{"jsonrpc": 1, "id": 2, "method": 4, "params": 8}

// plainRequest decodes a plain request or notification line the way
// jsonrpc.DecodeMessage does, without the SDK decoder's fresh 32 KB buffer
// per call: the two a request line took were a quarter of everything the
// server allocated for a read turn (66 KB of about 215 KB), and so a
// quarter of its garbage collections, whose mark phases are what the
// slowest turns overlap. Anything less plain is lineOther: a key other than
// jsonrpc, id, method and params, a repeated key, a method that is not a
// string, an id that is not a string, null or a number, null params,
// invalid UTF-8 or nesting past the SDK's limit. TestPlainRequestMatchesSDK
// and its fuzz test hold a plain result to the SDK's.
func plainRequest(line []byte) (*jsonrpc.Request, lineKind) {
	if !utf8.Valid(line) || nestedDeeper(line, maxNesting) {
		return nil, lineOther
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, lineOther
	}
	var (
		version, method string
		id              any
		params          json.RawMessage
		seen            uint8 // one bit per key in requestKeys
		kind            = linePlain
	)
	for dec.More() {
		tok, err := dec.Token()
		key, isKey := tok.(string)
		bit := requestKeys[key]
		if err != nil || !isKey || bit == 0 || seen&bit != 0 {
			return nil, lineOther
		}
		seen |= bit
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, lineOther
		}
		switch key {
		case "jsonrpc":
			if json.Unmarshal(raw, &version) != nil {
				return nil, lineOther
			}
		case "method":
			if raw[0] != '"' || json.Unmarshal(raw, &method) != nil {
				return nil, lineOther
			}
		case "id":
			var exact bool
			id, exact = plainID(raw)
			switch {
			case string(raw) == "null":
				kind = lineNullID
			case !exact && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9'):
				kind = lineInexactID
			case !exact:
				return nil, lineOther
			}
		case "params":
			if string(raw) == "null" {
				return nil, lineOther
			}
			params = raw
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') || version != "2.0" || seen&requestKeys["method"] == 0 {
		return nil, lineOther
	}
	if kind != linePlain {
		return nil, kind
	}
	rid, err := jsonrpc.MakeID(id)
	if err != nil {
		return nil, lineOther
	}
	return &jsonrpc.Request{ID: rid, Method: method, Params: params}, linePlain
}

// plainID reads an id the SDK would read to the same value: a string, null,
// or a number whose decimal text is an integer float64 holds exactly (the
// SDK reads numbers as float64 and truncates them).
func plainID(raw json.RawMessage) (any, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil, false
	}
	switch v := v.(type) {
	case nil, string:
		return v, true
	case float64:
		return v, exactInteger(raw)
	}
	return nil, false
}

// maxExactID is the largest integer every smaller one of which float64
// holds exactly.
var maxExactID = big.NewInt(1 << 53)

// exactInteger reports whether the JSON number num is an integer within
// ±2^53, judged on its text: 9007199254740993 rounds to 2^53 as a float64.
func exactInteger(num []byte) bool {
	digits := bytes.TrimPrefix(num, []byte("-"))
	if len(digits) > 0 && len(digits) <= 15 && bytes.IndexFunc(digits, func(r rune) bool { return r < '0' || r > '9' }) < 0 {
		return true // below 10^15, the common case
	}
	r, ok := new(big.Rat).SetString(string(num))
	return ok && r.IsInt() && r.Num().CmpAbs(maxExactID) <= 0
}

// nestedDeeper reports whether objects and arrays in data nest deeper than
// max, counting as the SDK's check does: brackets outside strings.
func nestedDeeper(data []byte, max int) bool {
	depth := 0
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > max {
				return true
			}
		case b == '}' || b == ']':
			depth--
		}
	}
	return false
}
