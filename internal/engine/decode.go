package engine

// This file decodes a decision, as OPA's value form, straight into the Go
// value the caller reads it into. Writing the JSON and decoding it again
// with json.Unmarshal scanned every byte twice and allocated every string
// anew; here a string field takes the string the evaluation holds, and only
// slices and maps allocate. The result must be what json.Unmarshal(raw,
// out) makes of the decision's JSON: whatever this decoder does not handle
// in exactly that way (a key matched only case-insensitively, a number an
// int cannot hold, invalid UTF-8, a type with its own UnmarshalJSON, an
// embedded struct) is left to json.Unmarshal, for the whole result, so
// that its value or its error is the one callers get (decode_test.go
// compares both paths).

import (
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
)

// errNotDecoded sends a result to json.Unmarshal.
var errNotDecoded = errors.New("value left to json.Unmarshal")

// decodeResult sets *out (out a non-nil pointer to a zero value) from v,
// or, when the direct path does not apply, from raw, v's JSON text, with
// json.Unmarshal.
func decodeResult(v ast.Value, raw []byte, out any) error {
	rv := reflect.ValueOf(out)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() && rv.Elem().IsZero() {
		if err := decodeValue(v, rv.Elem()); err == nil {
			return nil
		}
		rv.Elem().SetZero() // undo a partial decode
	}
	return json.Unmarshal(raw, out)
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// decodeValue sets dst, which holds its zero value, from v.
func decodeValue(v ast.Value, dst reflect.Value) error {
	if reflect.PointerTo(dst.Type()).Implements(unmarshalerType) || reflect.PointerTo(dst.Type()).Implements(textUnmarshalerType) {
		return errNotDecoded
	}
	if _, null := v.(ast.Null); null {
		return nil // json.Unmarshal leaves a zero value as it is on null
	}
	switch dst.Kind() {
	case reflect.Pointer:
		p := reflect.New(dst.Type().Elem())
		if err := decodeValue(v, p.Elem()); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	case reflect.Interface:
		if dst.NumMethod() != 0 {
			return errNotDecoded
		}
		x, err := plainValue(v)
		if err != nil {
			return err
		}
		if x != nil {
			dst.Set(reflect.ValueOf(x))
		}
		return nil
	case reflect.String:
		s, ok := v.(ast.String)
		if !ok || !utf8.ValidString(string(s)) {
			return errNotDecoded
		}
		dst.SetString(string(s))
		return nil
	case reflect.Bool:
		b, ok := v.(ast.Boolean)
		if !ok {
			return errNotDecoded
		}
		dst.SetBool(bool(b))
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(ast.Number)
		if !ok {
			return errNotDecoded
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil || dst.OverflowInt(i) || !validNumber(string(n)) {
			return errNotDecoded
		}
		dst.SetInt(i)
		return nil
	case reflect.Float32, reflect.Float64:
		n, ok := v.(ast.Number)
		if !ok {
			return errNotDecoded
		}
		f, err := strconv.ParseFloat(string(n), dst.Type().Bits())
		if err != nil || !validNumber(string(n)) {
			return errNotDecoded
		}
		dst.SetFloat(f)
		return nil
	case reflect.Slice:
		return decodeSlice(v, dst)
	case reflect.Map:
		return decodeMap(v, dst)
	case reflect.Struct:
		return decodeStruct(v, dst)
	}
	return errNotDecoded
}

// elements calls f with every element of an array or set, in the order
// resultJSON writes them.
func elements(v ast.Value, f func(i int, t *ast.Term) error) (n int, err error) {
	switch v := v.(type) {
	case *ast.Array:
		for i := range v.Len() {
			if err := f(i, v.Elem(i)); err != nil {
				return 0, err
			}
		}
		return v.Len(), nil
	case ast.Set:
		i := 0
		err := v.Iter(func(t *ast.Term) error {
			err := f(i, t)
			i++
			return err
		})
		return i, err
	}
	return 0, errNotDecoded
}

// lengthOf is the length of an array or set, -1 for another value.
func lengthOf(v ast.Value) int {
	switch v := v.(type) {
	case *ast.Array:
		return v.Len()
	case ast.Set:
		return v.Len()
	}
	return -1
}

func decodeSlice(v ast.Value, dst reflect.Value) error {
	length := lengthOf(v)
	if length < 0 {
		return errNotDecoded
	}
	if dst.Type().Elem().Kind() == reflect.Uint8 {
		return errNotDecoded // []byte is base64 text to json.Unmarshal
	}
	s := reflect.MakeSlice(dst.Type(), length, length) // [] is an empty slice, never nil
	if _, err := elements(v, func(i int, t *ast.Term) error { return decodeValue(t.Value, s.Index(i)) }); err != nil {
		return err
	}
	dst.Set(s)
	return nil
}

func decodeMap(v ast.Value, dst reflect.Value) error {
	obj, ok := v.(ast.Object)
	if !ok || reflect.TypeOf(v) != objectType || dst.Type().Key().Kind() != reflect.String || dst.Type().Key() != reflect.TypeFor[string]() {
		return errNotDecoded
	}
	m := reflect.MakeMapWithSize(dst.Type(), obj.Len())
	elem := reflect.New(dst.Type().Elem()).Elem()
	err := obj.Iter(func(k, t *ast.Term) error {
		key, ok := k.Value.(ast.String)
		if !ok || !utf8.ValidString(string(key)) {
			return errNotDecoded
		}
		elem.SetZero()
		if err := decodeValue(t.Value, elem); err != nil {
			return err
		}
		m.SetMapIndex(reflect.ValueOf(string(key)), elem)
		return nil
	})
	if err != nil {
		return err
	}
	dst.Set(m)
	return nil
}

func decodeStruct(v ast.Value, dst reflect.Value) error {
	obj, ok := v.(ast.Object)
	if !ok || reflect.TypeOf(v) != objectType {
		return errNotDecoded
	}
	fields, err := structFields(dst.Type())
	if err != nil {
		return err
	}
	return obj.Iter(func(k, t *ast.Term) error {
		key, ok := k.Value.(ast.String)
		if !ok {
			return errNotDecoded
		}
		i, ok := fields.byName[string(key)]
		if !ok {
			for name := range fields.byName {
				if strings.EqualFold(name, string(key)) {
					return errNotDecoded // json.Unmarshal's case-insensitive match
				}
			}
			return nil // a member the struct does not have
		}
		return decodeValue(t.Value, dst.Field(i))
	})
}

// decodedFields are the fields json.Unmarshal fills, by JSON name.
type decodedFields struct {
	byName map[string]int
}

var fieldCache sync.Map // reflect.Type → *decodedFields or error

// structFields reads t's fields as encoding/json names them; a struct with
// embedded fields or tag options other than omitempty is not decoded here.
func structFields(t reflect.Type) (*decodedFields, error) {
	if f, ok := fieldCache.Load(t); ok {
		if err, isErr := f.(error); isErr {
			return nil, err
		}
		return f.(*decodedFields), nil
	}
	f := &decodedFields{byName: map[string]int{}}
	var err error
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			err = errNotDecoded
			break
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if opts != "" && opts != "omitempty" {
			err = errNotDecoded
			break
		}
		if name == "" {
			name = sf.Name
		}
		if _, dup := f.byName[name]; dup {
			err = errNotDecoded
			break
		}
		f.byName[name] = i
	}
	if err != nil {
		fieldCache.Store(t, err)
		return nil, err
	}
	fieldCache.Store(t, f)
	return f, nil
}

// plainValue is what json.Unmarshal puts in an interface{}: nil, bool,
// float64, string, []any and map[string]any.
func plainValue(v ast.Value) (any, error) {
	switch v := v.(type) {
	case ast.Null:
		return nil, nil
	case ast.Boolean:
		return bool(v), nil
	case ast.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil || !validNumber(string(v)) {
			return nil, errNotDecoded
		}
		return f, nil
	case ast.String:
		if !utf8.ValidString(string(v)) {
			return nil, errNotDecoded
		}
		return string(v), nil
	case *ast.Array, ast.Set:
		out := make([]any, 0, lengthOf(v))
		_, err := elements(v, func(_ int, t *ast.Term) error {
			x, err := plainValue(t.Value)
			out = append(out, x)
			return err
		})
		return out, err
	case ast.Object:
		if reflect.TypeOf(v) != objectType {
			return nil, errNotDecoded
		}
		out := make(map[string]any, v.Len())
		err := v.Iter(func(k, t *ast.Term) error {
			key, ok := k.Value.(ast.String)
			if !ok || !utf8.ValidString(string(key)) {
				return errNotDecoded
			}
			x, err := plainValue(t.Value)
			out[string(key)] = x
			return err
		})
		return out, err
	}
	return nil, errNotDecoded
}
