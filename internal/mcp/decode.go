package mcp

import (
	"bytes"
	"encoding/json"
	"math"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxNesting is the deepest JSON nesting jsonrpc.DecodeMessage accepts (the
// SDK's internal limit); a deeper line goes to it to be refused there.
const maxNesting = 1000

// decodeRequest decodes a plain request or notification line the way
// jsonrpc.DecodeMessage does, without the SDK decoder's fresh 32 KB buffer
// per call: the two a request line took were a quarter of everything the
// server allocated for a read turn (66 KB of about 215 KB), and so a
// quarter of its garbage collections, whose mark phases are what the
// slowest turns overlap. ok is false for anything less plain: a
// key other than jsonrpc, id, method and params, a repeated key, a method
// that is not a string, an id that is not a string, null or an integer,
// null params, invalid UTF-8 or nesting past the SDK's limit. The caller
// hands such a line to DecodeMessage, so the SDK's rules and error messages
// apply to it unchanged; TestDecodeRequestMatchesSDK and its fuzz test hold
// the two to the same result.
func decodeRequest(line []byte) (req *jsonrpc.Request, ok bool) {
	if !utf8.Valid(line) || nestedDeeper(line, maxNesting) {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var (
		version, method string
		id              any
		params          json.RawMessage
		seen            uint8 // one bit per key in requestKeys
	)
	for dec.More() {
		tok, err := dec.Token()
		key, isKey := tok.(string)
		bit := requestKeys[key]
		if err != nil || !isKey || bit == 0 || seen&bit != 0 {
			return nil, false
		}
		seen |= bit
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false
		}
		switch key {
		case "jsonrpc":
			if json.Unmarshal(raw, &version) != nil {
				return nil, false
			}
		case "method":
			if raw[0] != '"' || json.Unmarshal(raw, &method) != nil {
				return nil, false
			}
		case "id":
			if id, ok = plainID(raw); !ok {
				return nil, false
			}
		case "params":
			if string(raw) == "null" {
				return nil, false
			}
			params = raw
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') || version != "2.0" || seen&requestKeys["method"] == 0 {
		return nil, false
	}
	rid, err := jsonrpc.MakeID(id)
	if err != nil {
		return nil, false
	}
	return &jsonrpc.Request{ID: rid, Method: method, Params: params}, true
}

// requestKeys are the keys of a plain request, each with its bit.
var requestKeys = map[string]uint8{"jsonrpc": 1, "id": 2, "method": 4, "params": 8}

// plainID reads an id the SDK would read to the same value: a string, null,
// or a number that is an integer float64 holds exactly (the SDK reads
// numbers as float64 and truncates them).
func plainID(raw json.RawMessage) (any, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil, false
	}
	switch v := v.(type) {
	case nil, string:
		return v, true
	case float64:
		return v, v == math.Trunc(v) && math.Abs(v) <= 1<<53
	}
	return nil, false
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
