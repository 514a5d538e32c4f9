package engine

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// jsonCases are documents valueFromJSON must read exactly as
// ast.ValueFromReader does (valid) or refuse (invalid).
var jsonCases = []struct {
	note, json string
	invalid    bool
}{
	{note: "null", json: `null`},
	{note: "true", json: `true`},
	{note: "false", json: `false`},
	{note: "white space around", json: " \t\r\n{ \"a\" : [ 1 , 2 ] }\n "},
	{note: "empty object", json: `{}`},
	{note: "empty array", json: `[]`},
	{note: "empty string", json: `""`},
	{note: "nested", json: `{"a":{"b":[{"c":[[],{}]}],"d":null},"e":[true,false,null]}`},
	{note: "interned ints", json: `[0,1,-1,100,512,-0]`},
	{note: "large ints", json: `[1099511627776,-9223372036854775809,123456789012345678901234567890]`},
	{note: "fractions and exponents", json: `[0.5,-0.25,1e3,1E3,1e+3,1e-3,2.5E-7,0e0,-0.0]`},
	{note: "huge exponent in range", json: `[1e300,1e-300]`},
	{note: "escapes", json: `"a\"b\\c\/d\be\ff\ng\rh\ti"`},
	{note: "unicode escapes", json: `"\u0041\u00e9\u4e2d\u0000\u001f"`},
	{note: "surrogate pair", json: `"\ud83d\ude00"`},
	{note: "lone high surrogate", json: `"a\ud83db"`},
	{note: "lone low surrogate", json: `"\ude00"`},
	{note: "high surrogate then non-surrogate escape", json: `"\ud83d\u0041"`},
	{note: "two high surrogates", json: `"\ud83d\ud83d\ude00"`},
	{note: "raw UTF-8", json: `"héllo 中文 😀"`},
	{note: "invalid UTF-8 becomes U+FFFD", json: "\"a\xffb\xc3\""},
	{note: "invalid UTF-8 after an escape", json: "\"\\n\xff\""},
	{note: "DEL and HTML characters", json: "\"\x7f<>&\u2028\""},
	{note: "escaped keys", json: `{"a\u0062":1,"c\n":2}`},
	{note: "duplicate keys: the last wins", json: `{"a":1,"b":2,"a":3}`},
	{note: "duplicate keys spelled differently", json: `{"ab":1,"a\u0062":2}`},
	{note: "duplicate keys in a large object", json: largeObject(40, true)},
	{note: "large object", json: largeObject(40, false)},
	{note: "long strings are not shared", json: `["` + strings.Repeat("x", 100) + `","` + strings.Repeat("x", 100) + `"]`},
	{note: "the same string as key and value", json: `{"a":"a","b":["a","b"]}`},
	{note: "deep nesting", json: strings.Repeat("[", 10000) + strings.Repeat("]", 10000)},

	{note: "empty input", json: ``, invalid: true},
	{note: "only space", json: `   `, invalid: true},
	{note: "trailing data", json: `{} {}`, invalid: true},
	{note: "trailing comma in array", json: `[1,]`, invalid: true},
	{note: "trailing comma in object", json: `{"a":1,}`, invalid: true},
	{note: "missing colon", json: `{"a" 1}`, invalid: true},
	{note: "non-string key", json: `{1:2}`, invalid: true},
	{note: "unterminated string", json: `"abc`, invalid: true},
	{note: "unterminated escape", json: `"abc\`, invalid: true},
	{note: "bad escape", json: `"\x"`, invalid: true},
	{note: "single quote escape", json: `"\'"`, invalid: true},
	{note: "short unicode escape", json: `"\u12"`, invalid: true},
	{note: "bad hex", json: `"\u12g4"`, invalid: true},
	{note: "control character", json: "\"a\tb\"", invalid: true},
	{note: "control character after escape", json: "\"\\n\x01\"", invalid: true},
	{note: "leading zero", json: `01`, invalid: true},
	{note: "lone minus", json: `-`, invalid: true},
	{note: "minus then letter", json: `-a`, invalid: true},
	{note: "plus sign", json: `+1`, invalid: true},
	{note: "dot without digits", json: `1.`, invalid: true},
	{note: "leading dot", json: `.5`, invalid: true},
	{note: "exponent without digits", json: `1e`, invalid: true},
	{note: "exponent sign without digits", json: `1e+`, invalid: true},
	{note: "out of range exponent (valid JSON, refused by OPA)", json: `1e1000000000`, invalid: true},
	{note: "hex number", json: `0x10`, invalid: true},
	{note: "truncated literal", json: `tru`, invalid: true},
	{note: "misspelled literal", json: `nul1`, invalid: true},
	{note: "capitalised literal", json: `True`, invalid: true},
	{note: "unclosed array", json: `[1,2`, invalid: true},
	{note: "unclosed object", json: `{"a":1`, invalid: true},
	{note: "mismatched brackets", json: `[1}`, invalid: true},
	{note: "byte order mark", json: "\ufeff{}", invalid: true},
	{note: "too deep", json: strings.Repeat("[", 10001) + strings.Repeat("]", 10001), invalid: true},
}

func largeObject(n int, dup bool) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":` + string(rune('0'+i%10)))
	}
	if dup {
		b.WriteString(`,"kaa":"last"`)
	}
	b.WriteString("}")
	return b.String()
}

// checkValueFromJSON compares valueFromJSON with ast.ValueFromReader: for
// valid JSON the values must be equal (and hash alike, as OPA indexes by
// hash); for anything else valueFromJSON must fail.
func checkValueFromJSON(t *testing.T, data []byte) {
	t.Helper()
	got, err := valueFromJSON(data)
	if !json.Valid(data) {
		if err == nil {
			t.Fatalf("accepted invalid JSON %q as %v", data, got)
		}
		return
	}
	want, wantErr := ast.ValueFromReader(bytes.NewReader(data))
	if wantErr != nil {
		if err == nil {
			t.Fatalf("accepted %q, which ValueFromReader refuses: %v", data, wantErr)
		}
		return
	}
	if err != nil {
		t.Fatalf("refused %q: %v", data, err)
	}
	if ast.Compare(got, want) != 0 {
		t.Fatalf("%q:\n got %v\nwant %v", data, got, want)
	}
	if got.Hash() != want.Hash() {
		t.Fatalf("%q: hash %d, want %d", data, got.Hash(), want.Hash())
	}
	if got.String() != want.String() {
		t.Fatalf("%q: %s, want %s", data, got, want)
	}
}

func TestValueFromJSON(t *testing.T) {
	for _, tc := range jsonCases {
		t.Run(tc.note, func(t *testing.T) {
			checkValueFromJSON(t, []byte(tc.json))
			_, err := valueFromJSON([]byte(tc.json))
			if (err != nil) != tc.invalid {
				t.Fatalf("err %v, want invalid %v", err, tc.invalid)
			}
		})
	}
}

// TestValueFromJSONInputs checks real inputs: the recorded read turn and
// the plan submission, as the controller marshals them.
func TestValueFromJSONInputs(t *testing.T) {
	read, err := os.ReadFile("testdata/read-input.json")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := json.Marshal(plan200Input(t))
	if err != nil {
		t.Fatal(err)
	}
	var indented bytes.Buffer
	_ = json.Indent(&indented, plan, "", "  ")
	for _, tc := range []struct {
		note string
		json []byte
	}{
		{"read turn", read},
		{"plan submission", plan},
		{"plan submission indented", indented.Bytes()},
	} {
		t.Run(tc.note, func(t *testing.T) {
			checkValueFromJSON(t, tc.json)
		})
	}
}

// TestValueFromJSONReuse: the pooled parser carries nothing from one
// document into the next, failed ones included.
func TestValueFromJSONReuse(t *testing.T) {
	docs := []string{`{"a":"x","b":[1,2]}`, `{"a":`, `{"b":"x","a":[1,2]}`, `["a","a",{"a":"b"}]`, `{"a":1,"a":2}`, `{"a":"x","b":[1,2]}`}
	for range 3 {
		for _, d := range docs {
			checkValueFromJSON(t, []byte(d))
		}
	}
}

func FuzzValueFromJSON(f *testing.F) {
	for _, tc := range jsonCases {
		if len(tc.json) < 1000 {
			f.Add([]byte(tc.json))
		}
	}
	if read, err := os.ReadFile("testdata/read-input.json"); err == nil {
		f.Add(read)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkValueFromJSON(t, data)
	})
}
