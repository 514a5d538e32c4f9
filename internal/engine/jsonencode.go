package engine

// This file writes a decision, as OPA's value form, straight to JSON.
// Going through rego's default result (ast.JSON's maps and slices) and
// json.Marshal builds and sorts a map per object only to throw it away.
// The bytes must be exactly those json.Marshal(ast.JSON(v)) produces, as
// they are the decision record; anything this encoder does not handle in
// the same way is left to that path (see resultJSON).

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
)

// errNotEncoded sends a value to the ast.JSON and json.Marshal path.
var errNotEncoded = errors.New("value left to json.Marshal")

// objectType is the type of the objects evaluation builds. Others (the
// lazy objects OPA wraps Go maps in) marshal as the Go map they hold.
var objectType = reflect.TypeOf(ast.NewObject())

// resultJSON is json.Marshal(ast.JSON(v)), faster.
func resultJSON(v ast.Value) ([]byte, error) {
	enc := &valueEncoder{b: make([]byte, 0, 1024)}
	enc.member, enc.element = enc.appendMember, enc.appendElement
	err := enc.appendValue(v)
	if err == nil {
		return enc.b, nil
	}
	if !errors.Is(err, errNotEncoded) {
		return nil, err
	}
	x, err := ast.JSON(v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(x)
}

// valueEncoder appends values as json.Marshal writes what ast.JSON makes
// of them: objects with sorted keys, sets as arrays in their order,
// numbers as their text, strings escaped for HTML. Objects and sets are
// walked with callbacks bound once, so that walking them allocates
// nothing.
type valueEncoder struct {
	b       []byte
	member  func(k, v *ast.Term) error
	element func(t *ast.Term) error
}

func (enc *valueEncoder) appendValue(v ast.Value) error {
	switch v := v.(type) {
	case ast.Null:
		enc.b = append(enc.b, "null"...)
	case ast.Boolean:
		enc.b = strconv.AppendBool(enc.b, bool(v))
	case ast.Number:
		s := string(v)
		if s == "" {
			s = "0" // as json.Number("") marshals
		}
		if !validNumber(s) {
			return fmt.Errorf("json: invalid number literal %q", s)
		}
		enc.b = append(enc.b, s...)
	case ast.String:
		enc.b = appendJSONString(enc.b, string(v))
	case *ast.Array:
		enc.b = append(enc.b, '[')
		for i := range v.Len() {
			if i > 0 {
				enc.b = append(enc.b, ',')
			}
			if err := enc.appendValue(v.Elem(i).Value); err != nil {
				return err
			}
		}
		enc.b = append(enc.b, ']')
	case ast.Set:
		enc.b = append(enc.b, '[')
		if err := v.Iter(enc.element); err != nil {
			return err
		}
		enc.b = append(enc.b, ']')
	case ast.Object:
		if reflect.TypeOf(v) != objectType {
			return errNotEncoded
		}
		// Iteration is in key order; for string keys that is the byte
		// order json.Marshal sorts map keys in. Other keys are turned into
		// strings by ast.JSON, which may reorder them: not handled here.
		enc.b = append(enc.b, '{')
		if err := v.Iter(enc.member); err != nil {
			return err
		}
		enc.b = append(enc.b, '}')
	default:
		return errNotEncoded // refs, vars and the like: ast.JSON says why
	}
	return nil
}

// appendMember and appendElement know they come first in their object or
// set when the last byte written is its opening bracket.
func (enc *valueEncoder) appendMember(k, v *ast.Term) error {
	key, ok := k.Value.(ast.String)
	if !ok {
		return errNotEncoded
	}
	if enc.b[len(enc.b)-1] != '{' {
		enc.b = append(enc.b, ',')
	}
	enc.b = appendJSONString(enc.b, string(key))
	enc.b = append(enc.b, ':')
	return enc.appendValue(v.Value)
}

func (enc *valueEncoder) appendElement(t *ast.Term) error {
	if enc.b[len(enc.b)-1] != '[' {
		enc.b = append(enc.b, ',')
	}
	return enc.appendValue(t.Value)
}

const hexDigits = "0123456789abcdef"

// appendJSONString is encoding/json's string encoding with HTML escaping,
// which json.Marshal always applies.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// validNumber reports whether s is a JSON number, as json.Marshal checks
// a json.Number before writing it.
func validNumber(s string) bool {
	end, ok := scanNumber(s, 0)
	return ok && end == len(s)
}
