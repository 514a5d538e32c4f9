package engine

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// decodeTarget has a field of every kind decisions are read into.
type decodeTarget struct {
	Allow    *bool             `json:"allow"`
	Name     string            `json:"name"`
	Count    int               `json:"count,omitempty"`
	Share    float64           `json:"share"`
	List     []string          `json:"list"`
	Items    []map[string]any  `json:"items"`
	Any      any               `json:"any"`
	Object   map[string]any    `json:"object"`
	Counts   map[string]int    `json:"counts"`
	Nested   struct{ N int }   `json:"nested"`
	Pointer  *struct{ S bool } `json:"pointer"`
	Untagged string
	Skipped  string          `json:"-"`
	Raw      json.RawMessage `json:"raw"`
}

// embeddingTarget embeds a struct: left to json.Unmarshal.
type embeddingTarget struct {
	decodeTarget
	Extra string `json:"extra"`
}

// checkDecode: decodeResult makes of v what json.Unmarshal makes of v's
// JSON, value and error alike, for every target type.
func checkDecode(t *testing.T, v ast.Value) {
	t.Helper()
	raw, err := resultJSON(v)
	if err != nil {
		return // no JSON, no decision (eval fails before decoding)
	}
	for _, target := range []func() any{
		func() any { return new(decodeTarget) },
		func() any { return new(embeddingTarget) },
		func() any { return new(turnDecision) },
		func() any { return new(map[string]any) },
		func() any { return new(any) },
	} {
		got, want := target(), target()
		gotErr := decodeResult(v, raw, got)
		wantErr := json.Unmarshal(raw, want)
		if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
			t.Fatalf("%s into %T: err %v, want %v", raw, got, gotErr, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s into %T:\n got %#v\nwant %#v", raw, got, got, want)
		}
	}
}

func TestDecodeResult(t *testing.T) {
	for _, tc := range []struct {
		note, rego string // a Rego term
	}{
		{note: "every field", rego: `{"allow": true, "name": "n", "count": 3, "share": 0.5, "list": ["a", "b"], "items": [{"k": 1}], "any": [1, "x", null, {"a": false}], "object": {"n": 1.5, "l": []}, "counts": {"a": 1}, "nested": {"N": 2}, "pointer": {"S": true}, "Untagged": "u", "Skipped": "s", "raw": {"a": 1}}`},
		{note: "a decision", rego: `{"allow": false, "state": "PLANNING", "capabilities": ["read_file_lines"], "denials": [{"code": "X", "path": ""}], "pack": {"files": [], "excluded": []}, "obligations": {}}`},
		{note: "empty containers", rego: `{"list": [], "items": [], "object": {}, "any": {}, "counts": {}}`},
		{note: "nulls", rego: `{"allow": null, "name": null, "count": null, "list": null, "object": null, "any": null, "pointer": null}`},
		{note: "sets as arrays", rego: `{"list": {"b", "a"}, "any": {1, 2}}`},
		{note: "unknown members", rego: `{"other": 1, "name": "n"}`},
		{note: "key matched only case-insensitively", rego: `{"NAME": "n"}`},
		{note: "two keys for one field", rego: `{"Name": "a", "name": "b"}`},
		{note: "a number an int cannot hold", rego: `{"count": 1.5}`},
		{note: "an int out of range", rego: `{"count": 123456789012345678901234567890}`},
		{note: "an exponent", rego: `{"count": 1e3, "share": 1e3}`},
		{note: "a string for an int", rego: `{"count": "1"}`},
		{note: "a number for a string", rego: `{"name": 1}`},
		{note: "an array for a struct", rego: `{"nested": [1]}`},
		{note: "an object for a list", rego: `{"list": {"a": 1}}`},
		{note: "non-string keys", rego: `{"object": {1: "a"}}`},
		{note: "not an object", rego: `[1, 2]`},
		{note: "a string", rego: `"s"`},
	} {
		t.Run(tc.note, func(t *testing.T) {
			term, err := ast.ParseTerm(tc.rego)
			if err != nil {
				t.Fatal(err)
			}
			checkDecode(t, term.Value)
		})
	}
	for _, tc := range []struct {
		note  string
		value ast.Value
	}{
		{"invalid UTF-8", ast.NewObject(ast.Item(ast.StringTerm("name"), ast.StringTerm("a\xffb")))},
		{"invalid UTF-8 in any", ast.NewObject(ast.Item(ast.StringTerm("any"), ast.StringTerm("a\xffb")))},
		{"number with a plus", ast.NewObject(ast.Item(ast.StringTerm("count"), ast.NumberTerm("+1")))},
		{"lazy object", ast.LazyObject(map[string]any{"name": "n"})},
	} {
		t.Run(tc.note, func(t *testing.T) {
			checkDecode(t, tc.value)
		})
	}
	forJSONCaseValues(t, checkDecode)
}

// TestDecodeResultNotZero: an out that already holds values is decoded by
// json.Unmarshal, which merges into it.
func TestDecodeResultNotZero(t *testing.T) {
	v := ast.MustParseTerm(`{"object": {"b": 2}}`).Value
	raw, _ := resultJSON(v)
	got := decodeTarget{Name: "kept", Object: map[string]any{"a": 1.0}}
	if err := decodeResult(v, raw, &got); err != nil {
		t.Fatal(err)
	}
	want := decodeTarget{Name: "kept", Object: map[string]any{"a": 1.0, "b": 2.0}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
}

// FuzzDecodeResult: any JSON document read by valueFromJSON decodes as
// json.Unmarshal decodes its text.
func FuzzDecodeResult(f *testing.F) {
	for _, tc := range jsonCases {
		if len(tc.json) < 1000 {
			f.Add(tc.json)
		}
	}
	f.Add(`{"allow": true, "count": 1, "list": ["a"], "nested": {"N": 1}, "any": {"x": [1.5]}}`)
	f.Fuzz(func(t *testing.T, s string) {
		if v, err := valueFromJSON([]byte(s)); err == nil {
			checkDecode(t, v)
		}
	})
}

// TestDecodeResultDirect: a decision of the usual shapes is decoded from
// its value, not left to json.Unmarshal.
func TestDecodeResultDirect(t *testing.T) {
	for _, tc := range []struct {
		note, rego string
		out        any
	}{
		{"decision", `{"allow": false, "state": "PLANNING", "capabilities": ["read_file_lines"], "denials": [{"code": "X", "path": ""}], "suggestedAction": {"verb": "v", "args": {"n": 1}}, "pack": {"files": [], "excluded": []}, "obligations": {}}`, new(turnDecision)},
		{"map", `{"a": [1, {"b": null}]}`, new(map[string]any)},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if err := decodeValue(ast.MustParseTerm(tc.rego).Value, reflect.ValueOf(tc.out).Elem()); err != nil {
				t.Fatalf("left to json.Unmarshal: %v", err)
			}
		})
	}
}
