package engine

// This file turns the JSON text of a decision input into OPA's value form
// in one pass. ast.ValueFromReader decodes into interface{} values first
// and then converts those to ast terms, so every string, number, map and
// slice is built twice; on a 120 KB plan submission that took longer than
// evaluating the policy. The result must equal what ast.ValueFromReader
// returns for the same text (jsonvalue_test.go checks it, also by fuzzing).

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
)

// maxJSONDepth is encoding/json's nesting limit, so that the documents
// accepted here are those the standard decoder accepts.
const maxJSONDepth = 10000

// valueFromJSON parses one JSON document into an ast.Value. Invalid JSON,
// including anything but white space after the value, is an error.
func valueFromJSON(data []byte) (ast.Value, error) {
	// One copy of the text: strings without escapes are slices of it, so
	// they cost no allocation of their own.
	return parseJSON(string(data), memberCacheLevels)
}

// parseJSON is valueFromJSON on text that is not copied; with levels > 0,
// the members of a top-level object go through the member cache, those
// parsed there with levels-1.
func parseJSON(src string, levels int) (ast.Value, error) {
	p := parserPool.Get().(*jsonParser)
	defer p.release()
	p.src = src
	// With the member cache most of an input's members are not parsed:
	// slabs start small and double up to a size that suits the text.
	p.slabSize, p.slabMax = 16, min(max(len(src)/16, 16), 4096)
	p.cacheLevels = levels
	t, err := p.value()
	if err == nil {
		p.space()
		if p.pos < len(p.src) {
			err = p.errorf("invalid character %q after top-level value", p.src[p.pos])
		}
	}
	if err != nil {
		return nil, err
	}
	return t.Value, nil
}

// jsonParser is a recursive descent parser over src. Its scratch stacks
// and string table are reused between documents (see parserPool).
type jsonParser struct {
	src      string
	pos      int
	depth    int
	slab     []ast.Term // terms are handed out from here, a block at a time
	slabSize int
	slabMax  int
	// items and pairs hold the elements of the arrays and objects being
	// parsed; nested containers push above their parent's and pop back.
	items []*ast.Term
	pairs [][2]*ast.Term
	// strs holds one term per distinct key and short string: plan nodes
	// repeat the same keys and values hundreds of times. Equal keys are
	// thus the same *ast.Term, which is how duplicates are detected.
	strs map[string]*ast.Term
	seen map[*ast.Term]int
	// cacheLevels > 0: the members of the top-level object are looked up
	// in members (membercache.go) before they are parsed.
	cacheLevels int
}

var parserPool = sync.Pool{New: func() any {
	return &jsonParser{strs: map[string]*ast.Term{}, seen: map[*ast.Term]int{}}
}}

// release empties p, so that it pins none of the last document's terms,
// and pools it unless its buffers grew unusually large.
func (p *jsonParser) release() {
	clear(p.items[:cap(p.items)])
	clear(p.pairs[:cap(p.pairs)])
	p.items, p.pairs = p.items[:0], p.pairs[:0]
	p.src, p.pos, p.depth, p.slab, p.cacheLevels = "", 0, 0, nil, 0
	if len(p.strs) > 1<<14 || cap(p.items) > 1<<16 || cap(p.pairs) > 1<<16 {
		return
	}
	clear(p.strs)
	clear(p.seen)
	parserPool.Put(p)
}

// maxSharedString bounds the strings kept in p.strs: long values are
// rarely repeated and would only grow the table.
const maxSharedString = 64

func (p *jsonParser) errorf(format string, args ...any) error {
	return fmt.Errorf("invalid JSON at offset %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *jsonParser) eof() error {
	return fmt.Errorf("invalid JSON: unexpected end of input at offset %d", p.pos)
}

func (p *jsonParser) term(v ast.Value) *ast.Term {
	if len(p.slab) == 0 {
		p.slab = make([]ast.Term, p.slabSize)
		p.slabSize = min(2*p.slabSize, p.slabMax)
	}
	t := &p.slab[0]
	p.slab = p.slab[1:]
	t.Value = v
	return t
}

func (p *jsonParser) space() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) value() (*ast.Term, error) {
	p.space()
	if p.pos >= len(p.src) {
		return nil, p.eof()
	}
	switch c := p.src[p.pos]; c {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		if len(s) > maxSharedString {
			return p.term(ast.String(s)), nil
		}
		return p.shared(s), nil
	case 't':
		return ast.InternedBooleanTrue, p.literal("true")
	case 'f':
		return ast.InternedBooleanFalse, p.literal("false")
	case 'n':
		return ast.InternedNullTerm, p.literal("null")
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return p.number()
		}
		return nil, p.errorf("invalid character %q looking for beginning of value", c)
	}
}

// shared returns the one term for the string s in this document.
func (p *jsonParser) shared(s string) *ast.Term {
	if t, ok := p.strs[s]; ok {
		return t
	}
	t := internedString(s)
	if t == nil {
		t = p.term(ast.String(s))
	}
	p.strs[s] = t
	return t
}

// Every turn's input repeats the same keys and many of the same short
// values (states, verbs, the pack's paths): boxing each into an ast.String
// term again was a tenth of a read turn's allocations. Terms of strings
// seen before are shared between documents; OPA never modifies an input's
// terms. The table is bounded (maxInterned entries): an agent sending
// endless new strings only stops them being shared, it cannot grow it.
const maxInterned = 4096

var (
	interned      sync.Map // string -> *ast.Term, never removed
	internedCount atomic.Int32
)

// internedString returns the shared term for s, adding it while the table
// has room; nil when it is full.
func internedString(s string) *ast.Term {
	if len(s) > maxSharedString {
		return nil // a long key is an agent's to choose: never kept for the process
	}
	if t, ok := interned.Load(s); ok {
		return t.(*ast.Term)
	}
	if internedCount.Load() >= maxInterned {
		return nil
	}
	// A term of its own and a copy of s: s is a slice of the document's
	// text, which a shared term must not keep alive.
	s = strings.Clone(s)
	t, loaded := interned.LoadOrStore(s, ast.StringTerm(s))
	if !loaded {
		internedCount.Add(1)
	}
	return t.(*ast.Term)
}

func (p *jsonParser) literal(word string) error {
	if len(p.src)-p.pos < len(word) {
		if p.src[p.pos:] == word[:len(p.src)-p.pos] {
			p.pos = len(p.src)
			return p.eof()
		}
	} else if p.src[p.pos:p.pos+len(word)] == word {
		p.pos += len(word)
		return nil
	}
	return p.errorf("invalid literal, expected %s", word)
}

// number scans the JSON number grammar and keeps the text, as decoding
// with UseNumber does: ast.Number is the number's text.
func (p *jsonParser) number() (*ast.Term, error) {
	start := p.pos
	i, ok := scanNumber(p.src, start)
	p.pos = i
	if !ok {
		if i >= len(p.src) {
			return nil, p.eof()
		}
		return nil, p.errorf("invalid character %q in numeric literal", p.src[i])
	}
	text := p.src[start:i]
	if t := ast.InternedIntNumberTermFromString(text); t != nil {
		return t, nil
	}
	n, err := ast.NumberChecked(text)
	if err != nil {
		return nil, p.errorf("%v", err)
	}
	return p.term(n), nil
}

// scanNumber reads the JSON number grammar from s[i:]. It returns the end
// of the number, or, when ok is false, where a digit was expected.
func scanNumber(s string, i int) (end int, ok bool) {
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i >= len(s):
		return i, false
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		i = digits(s, i)
	default:
		return i, false
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// str scans a string literal at p.pos. Plain strings (no escapes, valid
// UTF-8) are returned as slices of the source; the rest are decoded.
func (p *jsonParser) str() (string, error) {
	s := p.src
	start := p.pos + 1
	for i := start; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return s[start:i], nil
		case c == '\\':
			return p.unquote(start, i)
		case c < 0x20:
			p.pos = i
			return "", p.errorf("invalid character %q in string literal", c)
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return p.unquote(start, i)
			}
			i += size
		}
	}
	p.pos = len(s)
	return "", p.eof()
}

// unquote decodes the string literal whose body starts at start; the
// bytes before i need no decoding. It follows encoding/json: invalid
// UTF-8 and unpaired surrogates become U+FFFD.
func (p *jsonParser) unquote(start, i int) (string, error) {
	s := p.src
	b := make([]byte, 0, i-start+16)
	b = append(b, s[start:i]...)
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return string(b), nil
		case c == '\\':
			if i+1 >= len(s) {
				p.pos = len(s)
				return "", p.eof()
			}
			switch e := s[i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, err := p.hex4(i + 2)
				if err != nil {
					return "", err
				}
				i += 6
				if utf16.IsSurrogate(r) {
					// A pair is two escapes; a lone half is U+FFFD and
					// whatever follows it is decoded on its own.
					if r2, ok := p.peekU4(i); ok {
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							b = utf8.AppendRune(b, dec)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
				continue
			default:
				p.pos = i + 1
				return "", p.errorf("invalid character %q in string escape code", e)
			}
			i += 2
		case c < 0x20:
			p.pos = i
			return "", p.errorf("invalid character %q in string literal", c)
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			b = utf8.AppendRune(b, r) // RuneError for invalid UTF-8
			i += size
		}
	}
	p.pos = len(s)
	return "", p.eof()
}

// hex4 reads the four hex digits of a \u escape at i.
func (p *jsonParser) hex4(i int) (rune, error) {
	var r rune
	for j := i; j < i+4; j++ {
		if j >= len(p.src) {
			p.pos = len(p.src)
			return 0, p.eof()
		}
		d := hexDigit(p.src[j])
		if d < 0 {
			p.pos = j
			return 0, p.errorf("invalid character %q in \\u hexadecimal character escape", p.src[j])
		}
		r = r<<4 | d
	}
	return r, nil
}

// peekU4 reads a \uXXXX escape at i, if there is a well-formed one.
func (p *jsonParser) peekU4(i int) (rune, bool) {
	s := p.src
	if i+6 > len(s) || s[i] != '\\' || s[i+1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i+2 : i+6]) {
		d := hexDigit(c)
		if d < 0 {
			return 0, false
		}
		r = r<<4 | d
	}
	return r, true
}

func hexDigit(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c - 'a' + 10)
	case c >= 'A' && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
}

func (p *jsonParser) enter() error {
	p.depth++
	if p.depth > maxJSONDepth {
		return p.errorf("exceeded max depth")
	}
	p.pos++
	return nil
}

func (p *jsonParser) array() (*ast.Term, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	base := len(p.items)
	p.space()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		p.depth--
		return p.term(ast.NewArray()), nil
	}
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		p.items = append(p.items, v)
		p.space()
		if p.pos >= len(p.src) {
			return nil, p.eof()
		}
		c := p.src[p.pos]
		p.pos++
		if c == ']' {
			break
		}
		if c != ',' {
			p.pos--
			return nil, p.errorf("invalid character %q after array element", c)
		}
	}
	// The array keeps the slice it is given, so it gets its own.
	elems := make([]*ast.Term, len(p.items)-base)
	copy(elems, p.items[base:])
	clear(p.items[base:])
	p.items = p.items[:base]
	p.depth--
	return p.term(ast.NewArray(elems...)), nil
}

func (p *jsonParser) object() (*ast.Term, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	base := len(p.pairs)
	p.space()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		p.depth--
		return p.term(ast.NewObject()), nil
	}
	for {
		p.space()
		if p.pos >= len(p.src) {
			return nil, p.eof()
		}
		if p.src[p.pos] != '"' {
			return nil, p.errorf("invalid character %q looking for beginning of object key string", p.src[p.pos])
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		key := p.shared(k)
		p.space()
		if p.pos >= len(p.src) {
			return nil, p.eof()
		}
		if p.src[p.pos] != ':' {
			return nil, p.errorf("invalid character %q after object key", p.src[p.pos])
		}
		p.pos++
		var v *ast.Term
		if p.depth == 1 && p.cacheLevels > 0 {
			v, err = p.member()
		} else {
			v, err = p.value()
		}
		if err != nil {
			return nil, err
		}
		p.pairs = append(p.pairs, [2]*ast.Term{key, v})
		p.space()
		if p.pos >= len(p.src) {
			return nil, p.eof()
		}
		c := p.src[p.pos]
		p.pos++
		if c == '}' {
			break
		}
		if c != ',' {
			p.pos--
			return nil, p.errorf("invalid character %q after object key:value pair", c)
		}
	}
	// NewObject copies the pairs, so the stack can be reused at once.
	obj := ast.NewObject(p.unique(p.pairs[base:])...)
	clear(p.pairs[base:])
	p.pairs = p.pairs[:base]
	p.depth--
	return p.term(obj), nil
}

// unique drops the members whose key comes again later: decoding into a
// map keeps the last value, and ast.NewObject must not see a key twice.
// Keys are shared terms, so equal keys are equal pointers.
func (p *jsonParser) unique(m [][2]*ast.Term) [][2]*ast.Term {
	if !p.hasDuplicate(m) {
		return m
	}
	defer clear(p.seen)
	for i, kv := range m {
		p.seen[kv[0]] = i // the last occurrence wins
	}
	out := make([][2]*ast.Term, 0, len(p.seen))
	for i, kv := range m {
		if p.seen[kv[0]] == i {
			out = append(out, kv)
		}
	}
	return out
}

func (p *jsonParser) hasDuplicate(m [][2]*ast.Term) bool {
	if len(m) <= 32 { // most objects: comparing pointers beats hashing
		for i := 1; i < len(m); i++ {
			for j := range i {
				if m[i][0] == m[j][0] {
					return true
				}
			}
		}
		return false
	}
	defer clear(p.seen)
	for _, kv := range m {
		if _, ok := p.seen[kv[0]]; ok {
			return true
		}
		p.seen[kv[0]] = 0
	}
	return false
}
