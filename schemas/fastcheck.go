package schemas

import (
	"math"
	"strings"
	"unicode/utf8"
)

// The jsonschema library validates a read turn's request in some 120
// allocations (its evaluation state, keyword locations, a result per
// keyword): more than the rest of the request's decoding. Most requests are
// valid, and for a valid one the library can only say so. validSchema
// therefore proves a request valid on its own, against the same schema
// text, with the keywords the request schema uses; it never reports a
// problem. When it cannot prove a request valid (the request is invalid,
// or its verb's schema uses a keyword or a form validSchema does not
// evaluate: oneOf, if/then, formats, references into another file), the
// library checks it and reports what is wrong, so the problems an agent
// sees are the library's, and a request the library would refuse is never
// let through (request_test.go compares both on every case and by
// fuzzing).

// validSchema is a compiled schema node that can prove an instance valid.
type validSchema struct {
	types      []string // any of these JSON types; none: any type
	required   []string
	properties map[string]*validSchema
	closed     bool // additionalProperties: false
	items      *validSchema
	minItems   int
	maxItems   int // -1: none
	minLength  int
	maxLength  int // -1: none
	minimum    *float64
	maximum    *float64
	enum       []any // strings, numbers or booleans; nil: any value
	all, any   []*validSchema
}

// compileValid compiles node, a schema of doc (whose "#/..." references
// it resolves); ok is false when node uses what validSchema does not
// evaluate, or the schema is malformed.
func compileValid(doc map[string]any, node any, depth int) (s *validSchema, ok bool) {
	if b, isBool := node.(bool); isBool {
		return &validSchema{maxItems: -1, maxLength: -1}, b // true holds everything; false is left to the library
	}
	m, isObject := node.(map[string]any)
	if !isObject || depth > 32 {
		return nil, false
	}
	s = &validSchema{maxItems: -1, maxLength: -1}
	for k, v := range m {
		switch k {
		case "$schema", "$id", "$comment", "$defs", "title", "description", "examples", "default", "deprecated", "readOnly", "writeOnly":
			// annotations and definitions: they constrain nothing
		case "type":
			switch t := v.(type) {
			case string:
				s.types = []string{t}
			case []any:
				for _, x := range t {
					name, isString := x.(string)
					if !isString {
						return nil, false
					}
					s.types = append(s.types, name)
				}
			default:
				return nil, false
			}
		case "required":
			list, isList := v.([]any)
			if !isList {
				return nil, false
			}
			for _, x := range list {
				name, isString := x.(string)
				if !isString {
					return nil, false
				}
				s.required = append(s.required, name)
			}
		case "properties":
			props, isObj := v.(map[string]any)
			if !isObj {
				return nil, false
			}
			s.properties = map[string]*validSchema{}
			for name, p := range props {
				if s.properties[name], ok = compileValid(doc, p, depth+1); !ok {
					return nil, false
				}
			}
		case "additionalProperties":
			if b, isBool := v.(bool); !isBool || b {
				return nil, false // true is the default, but say so only for what is tested
			}
			s.closed = true
		case "items":
			if s.items, ok = compileValid(doc, v, depth+1); !ok {
				return nil, false
			}
		case "minItems", "maxItems", "minLength", "maxLength":
			n, isCount := count(v)
			if !isCount {
				return nil, false
			}
			switch k {
			case "minItems":
				s.minItems = n
			case "maxItems":
				s.maxItems = n
			case "minLength":
				s.minLength = n
			case "maxLength":
				s.maxLength = n
			}
		case "minimum", "maximum":
			f, isNumber := v.(float64)
			if !isNumber {
				return nil, false
			}
			if k == "minimum" {
				s.minimum = &f
			} else {
				s.maximum = &f
			}
		case "const", "enum":
			values := []any{v}
			if k == "enum" {
				list, isList := v.([]any)
				if !isList {
					return nil, false
				}
				values = list
			}
			for _, x := range values {
				switch x.(type) {
				case string, float64, bool:
				default:
					return nil, false // objects and arrays compare structurally: left to the library
				}
			}
			if s.enum != nil { // both const and enum: only the values in both
				return nil, false
			}
			s.enum = values
		case "allOf", "anyOf":
			list, isList := v.([]any)
			if !isList || len(list) == 0 {
				return nil, false
			}
			for _, x := range list {
				sub, ok := compileValid(doc, x, depth+1)
				if !ok {
					return nil, false
				}
				if k == "allOf" {
					s.all = append(s.all, sub)
				} else {
					s.any = append(s.any, sub)
				}
			}
		case "$ref":
			ref, isString := v.(string)
			target, found := resolveLocal(doc, ref)
			if !isString || !found {
				return nil, false
			}
			sub, ok := compileValid(doc, target, depth+1)
			if !ok {
				return nil, false
			}
			s.all = append(s.all, sub)
		default:
			return nil, false
		}
	}
	return s, true
}

// count is a non-negative integer keyword's value.
func count(v any) (int, bool) {
	f, ok := v.(float64)
	if !ok || f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
		return 0, false
	}
	return int(f), true
}

// resolveLocal finds a "#/a/b" reference in doc.
func resolveLocal(doc map[string]any, ref string) (any, bool) {
	path, ok := strings.CutPrefix(ref, "#/")
	if !ok || strings.ContainsAny(path, "~%") {
		return nil, false
	}
	var cur any = doc
	for _, part := range strings.Split(path, "/") {
		m, isObject := cur.(map[string]any)
		if !isObject {
			return nil, false
		}
		if cur, ok = m[part]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// valid reports whether v, a decoded JSON value (map[string]any, []any,
// string, float64, bool, nil), is valid against s.
func (s *validSchema) valid(v any) bool {
	if len(s.types) > 0 && !hasType(v, s.types) {
		return false
	}
	if s.enum != nil && !inEnum(v, s.enum) {
		return false
	}
	switch v := v.(type) {
	case map[string]any:
		for _, name := range s.required {
			if _, ok := v[name]; !ok {
				return false
			}
		}
		for name, x := range v {
			p, ok := s.properties[name]
			if !ok {
				if s.closed {
					return false
				}
				continue
			}
			if !p.valid(x) {
				return false
			}
		}
	case []any:
		if len(v) < s.minItems || (s.maxItems >= 0 && len(v) > s.maxItems) {
			return false
		}
		if s.items != nil {
			for _, x := range v {
				if !s.items.valid(x) {
					return false
				}
			}
		}
	case string:
		if s.minLength > 0 || s.maxLength >= 0 {
			n := utf8.RuneCountInString(v)
			if n < s.minLength || (s.maxLength >= 0 && n > s.maxLength) {
				return false
			}
		}
	case float64:
		if (s.minimum != nil && v < *s.minimum) || (s.maximum != nil && v > *s.maximum) {
			return false
		}
	}
	for _, sub := range s.all {
		if !sub.valid(v) {
			return false
		}
	}
	if len(s.any) == 0 {
		return true
	}
	for _, sub := range s.any {
		if sub.valid(v) {
			return true
		}
	}
	return false
}

// hasType says whether v is of one of the JSON types; an integer is a
// number with no fraction.
func hasType(v any, types []string) bool {
	for _, t := range types {
		switch x := v.(type) {
		case map[string]any:
			if t == "object" {
				return true
			}
		case []any:
			if t == "array" {
				return true
			}
		case string:
			if t == "string" {
				return true
			}
		case bool:
			if t == "boolean" {
				return true
			}
		case nil:
			if t == "null" {
				return true
			}
		case float64:
			if t == "number" || (t == "integer" && x == math.Trunc(x) && !math.IsInf(x, 0)) {
				return true
			}
		}
	}
	return false
}

func inEnum(v any, values []any) bool {
	for _, x := range values {
		if x == v {
			return true
		}
	}
	return false
}
