// Package exactjson decodes a JSON document once, to the values policy
// judges and Go then executes, with keys matched exactly.
//
// encoding/json matches object keys to struct fields case-insensitively
// (with Unicode folding: "targetFıle" and "\u212Aind" match targetFile and
// kind) and keeps the last of duplicate keys. A document Rego judged key by
// key and Go later decoded into a struct could therefore mean two different
// things: a "targetfile" twin beside "targetFile" retargeted an accepted
// change. Decode refuses the ambiguity instead: it reports every duplicate
// key and every key that differs from another in the same object only in
// case (under the folding encoding/json applies, and under Unicode simple
// folding), and the values it returns are read with exact lookups (Object).
package exactjson

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Problem is a key a document may not hold: where (dotted path, as
// schemas.Problem writes it: args.planGraph.nodes[2].targetfile) and why.
type Problem struct {
	Path    string
	Message string
}

// Decode decodes data to the values json.Unmarshal would produce into an
// any (map[string]any, []any, string, float64, bool, nil), and reports
// duplicate and case-twin keys as problems; a document with problems still
// decodes (the first of twins is kept) so that its other facts can be
// judged, but it must not be executed. err is non-nil when data is not a
// JSON document json.Unmarshal accepts; its message is encoding/json's.
func Decode(data []byte) (any, []Problem, error) {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		if err == nil {
			err = fmt.Errorf("invalid JSON")
		}
		return nil, nil, err
	}
	d := decoder{data: data}
	d.skipSpace()
	v, err := d.value()
	if err != nil {
		return nil, nil, err
	}
	return v, d.problems, nil
}

// decoder walks a document json.Valid accepted; it still checks what it
// reads, so a disagreement with json.Valid is an error and never a panic.
type decoder struct {
	data     []byte
	pos      int
	problems []Problem
	keys     []keyInfo // the keys of the objects being decoded, as a stack
	members  []member  // their members, as a stack
	path     []step    // where the value being decoded is
}

type member struct {
	key string
	val any
}

type keyInfo struct {
	key   string
	ascii bool
}

var errMalformed = fmt.Errorf("malformed JSON")

// step is one step of the path to the value being decoded: an object key,
// or an array index when key is "" and index >= 0.
type step struct {
	key   string
	index int
}

// pathString renders the path of the value being decoded (d.path).
func (d *decoder) pathString() string {
	var b strings.Builder
	for _, s := range d.path {
		if s.index >= 0 {
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) value() (any, error) {
	if d.pos >= len(d.data) {
		return nil, errMalformed
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		s, _, err := d.str()
		return s, err
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	default:
		return d.number()
	}
}

func (d *decoder) literal(lit string) error {
	if len(d.data)-d.pos < len(lit) || string(d.data[d.pos:d.pos+len(lit)]) != lit {
		return errMalformed
	}
	d.pos += len(lit)
	return nil
}

func (d *decoder) number() (any, error) {
	start := d.pos
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			d.pos++
			continue
		}
		break
	}
	text := string(d.data[start:d.pos])
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		// json.Unmarshal refuses a number no float64 holds the same way.
		return nil, fmt.Errorf("json: cannot unmarshal number %s into Go value of type float64", text)
	}
	return f, nil
}

// str reads a string at d.pos and reports whether it is plain ASCII.
func (d *decoder) str() (string, bool, error) {
	start := d.pos
	d.pos++
	plain, ascii := true, true
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			raw := d.data[start:d.pos]
			if plain {
				return string(raw[1 : len(raw)-1]), ascii, nil
			}
			// Escapes and non-ASCII text: encoding/json's own rules
			// (surrogates, invalid UTF-8 as U+FFFD) apply unchanged.
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", false, err
			}
			return s, isASCII(s), nil
		case c == '\\':
			plain = false
			d.pos += 2
			continue
		case c >= utf8.RuneSelf:
			plain, ascii = false, false
		}
		d.pos++
	}
	return "", false, errMalformed
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// expect consumes c after optional space.
func (d *decoder) expect(c byte) error {
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != c {
		return errMalformed
	}
	d.pos++
	d.skipSpace()
	return nil
}

func (d *decoder) array() (any, error) {
	d.pos++
	d.skipSpace()
	out := []any{}
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return out, nil
	}
	for i := 0; ; i++ {
		d.path = append(d.path, step{index: i})
		v, err := d.value()
		d.path = d.path[:len(d.path)-1]
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, errMalformed
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
		case ']':
			d.pos++
			return out, nil
		default:
			return nil, errMalformed
		}
	}
}

// manyKeys is the object size from which twins are found through a map of
// folded keys rather than by comparing each key with the ones before it.
const manyKeys = 24

func (d *decoder) object() (any, error) {
	d.pos++
	d.skipSpace()
	base, memberBase := len(d.keys), len(d.members)
	defer func() { d.keys, d.members = d.keys[:base], d.members[:memberBase] }()
	var folded map[string]string // folded key -> first key, past manyKeys
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return map[string]any{}, nil
	}
	for {
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, errMalformed
		}
		key, ascii, err := d.str()
		if err != nil {
			return nil, err
		}
		if err := d.expect(':'); err != nil {
			return nil, err
		}
		twin, isTwin := "", false
		if folded == nil && len(d.keys)-base < manyKeys {
			for _, k := range d.keys[base:] {
				if sameFolded(k, keyInfo{key, ascii}) {
					twin, isTwin = k.key, true
					break
				}
			}
		} else {
			if folded == nil {
				folded = make(map[string]string, 2*manyKeys)
				for _, k := range d.keys[base:] {
					folded[fold(k.key)] = k.key
				}
			}
			f := fold(key)
			if twin, isTwin = folded[f]; !isTwin {
				folded[f] = key
			}
		}
		d.path = append(d.path, step{key: key, index: -1})
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		switch {
		case isTwin && twin == key:
			d.problems = append(d.problems, Problem{Path: d.pathString(), Message: fmt.Sprintf("duplicate key %q", key)})
		case isTwin:
			d.problems = append(d.problems, Problem{Path: d.pathString(),
				Message: fmt.Sprintf("key %q differs only in case from key %q in the same object", key, twin)})
		default:
			d.keys = append(d.keys, keyInfo{key, ascii})
			d.members = append(d.members, member{key, v})
		}
		d.path = d.path[:len(d.path)-1]
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, errMalformed
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
		case '}':
			d.pos++
			out := make(map[string]any, len(d.members)-memberBase)
			for _, m := range d.members[memberBase:] {
				out[m.key] = m.val
			}
			return out, nil
		default:
			return nil, errMalformed
		}
	}
}

// sameFolded reports whether two keys are equal once folded; two ASCII keys
// of different lengths or first letters never are, which settles most pairs
// without walking them.
func sameFolded(a, b keyInfo) bool {
	if a.ascii && b.ascii {
		if len(a.key) != len(b.key) || len(a.key) > 0 && lowerASCII(a.key[0]) != lowerASCII(b.key[0]) {
			return false
		}
		for i := 0; i < len(a.key); i++ {
			if lowerASCII(a.key[i]) != lowerASCII(b.key[i]) {
				return false
			}
		}
		return true
	}
	return fold(a.key) == fold(b.key)
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// fold maps a key to one representative of every key encoding/json would
// match it with (it compares unicode.ToUpper(unicode.ToLower(r)) rune by
// rune: the Kelvin sign folds to K, dotless ı to I) and of every key equal
// to it under Unicode simple case folding.
func fold(s string) string {
	if isASCII(s) {
		b := []byte(s)
		for i, c := range b {
			b[i] = lowerASCII(c)
		}
		return string(b)
	}
	out := make([]rune, 0, len(s))
	for _, r := range s {
		out = append(out, foldRune(r))
	}
	return string(out)
}

// foldRune is the smallest rune in the simple-folding orbit of r's
// encoding/json fold, lowered when ASCII.
func foldRune(r rune) rune {
	r = unicode.ToUpper(unicode.ToLower(r))
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	if least < utf8.RuneSelf {
		return rune(lowerASCII(byte(least)))
	}
	return least
}
