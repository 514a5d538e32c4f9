package controller

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sync"
)

// The input is encoded once per stage, member by member, to the text
// json.Marshal(input) writes (inputjson_test.go holds the two equal). Most
// of a read turn's input does not change under a Controller or between an
// agent's turns: the configuration, the sandbox, the envelope, and the
// zero facts of the verbs not taken. json.Marshal encoded them again on
// every turn by reflection, and ran every MarshalJSON's text through its
// validating compactor, which on a read turn cost more than evaluating
// the policy. Here a member that holds its text (encodedMember) is copied,
// a member at its zero value takes its type's zero text, encoded once, and
// only the rest goes through encoding/json. The engine parses the whole
// text before judging it, so nothing copied here goes unchecked.

// encodedMember is a member that may already hold its JSON text: ok is
// false when it must be encoded.
type encodedMember interface {
	inputJSON() (text []byte, ok bool)
}

// encoded is a value encoded once, with its text: configuration-lifetime
// facts.
type encoded[T any] struct {
	value T
	text  []byte
}

// encodeOnce encodes v for the inputs of every turn to come.
func encodeOnce[T any](v T) (encoded[T], error) {
	text, err := json.Marshal(v)
	return encoded[T]{value: v, text: text}, err
}

// MarshalJSON writes the text (json.Marshal of the value; null unset).
func (e encoded[T]) MarshalJSON() ([]byte, error) {
	if e.text == nil {
		return json.Marshal(e.value)
	}
	return e.text, nil
}

func (e encoded[T]) inputJSON() ([]byte, bool) { return e.text, e.text != nil }

// inputField is one member of input: its key text and where it is.
type inputField struct {
	key   []byte // "name":
	index int
	zero  []byte // json.Marshal of the type's zero value
}

// inputFields are input's members in the order json.Marshal writes them.
var inputFields = sync.OnceValue(func() []inputField {
	t := reflect.TypeFor[input]()
	out := make([]inputField, 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name := f.Tag.Get("json")
		if name == "" || name == "-" || !f.IsExported() || bytes.ContainsRune([]byte(name), ',') {
			panic("controller: input." + f.Name + " needs a plain json name") // inputjson_test.go catches it
		}
		key, _ := json.Marshal(name)
		zero, err := json.Marshal(reflect.Zero(f.Type).Interface())
		if err != nil {
			panic(err)
		}
		out = append(out, inputField{key: append(key, ':'), index: i, zero: zero})
	}
	return out
})

// encodeBuffers are reused between turns; the text handed out is a copy.
var encodeBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// AppendJSON appends the input's JSON text, the one json.Marshal writes.
// The engine takes it for the input as is (engine.JSONAppender).
func (in *input) AppendJSON(b []byte) ([]byte, error) {
	buf := encodeBuffers.Get().(*bytes.Buffer)
	defer encodeBuffers.Put(buf)
	enc := json.NewEncoder(buf)
	rv := reflect.ValueOf(in).Elem()
	b = append(b, '{')
	for i, f := range inputFields() {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, f.key...)
		v := rv.Field(f.index)
		if v.IsZero() {
			b = append(b, f.zero...)
			continue
		}
		p := v.Addr().Interface()
		if m, ok := p.(encodedMember); ok {
			if text, ok := m.inputJSON(); ok {
				b = append(b, text...)
				continue
			}
		}
		buf.Reset()
		if err := enc.Encode(p); err != nil {
			return nil, err
		}
		b = append(b, bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})...)
	}
	return append(b, '}'), nil
}
