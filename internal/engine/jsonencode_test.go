package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// marshalled is the JSON the engine wrote before resultJSON, which
// resultJSON must reproduce byte for byte.
func marshalled(v ast.Value) ([]byte, error) {
	x, err := ast.JSON(v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(x)
}

func checkResultJSON(t *testing.T, v ast.Value) {
	t.Helper()
	want, wantErr := marshalled(v)
	got, err := resultJSON(v)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%v: err %v, want %v", v, err, wantErr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%v:\n got %s\nwant %s", v, got, want)
	}
}

func TestResultJSON(t *testing.T) {
	for _, tc := range []struct {
		note, rego string // a Rego term
	}{
		{note: "scalars", rego: `[null, true, false, 0, -1, 1.5, 1e3, 12345678901234567890, "s"]`},
		{note: "object keys sorted", rego: `{"b": 1, "a": 2, "B": 3, "aa": 4, "": 5, "é": 6}`},
		{note: "nested", rego: `{"allow": true, "denials": [{"code": "X", "path": ""}], "pack": {"files": []}}`},
		{note: "empty containers", rego: `[[], {}, set()]`},
		{note: "sets in their order", rego: `{"s": {"b", "a", 3, [1], {"k": 1}}}`},
		{note: "HTML and control characters", rego: `"<a href=\"x\">&amp;</a>\n\t\r\b\f\u0000\u001f\u007f"`},
		{note: "line and paragraph separators", rego: `"a\u2028b\u2029c"`},
		{note: "non-ASCII", rego: `"héllo 中文 😀"`},
		{note: "non-string keys", rego: `{1: "a", "1": "b", [1]: "c", true: "d", null: "e"}`},
		{note: "non-string key nested", rego: `{"a": {2: 1, "b": [1, {3: 4}]}}`},
		{note: "a ref cannot be written", rego: `{"a": input.x}`},
		{note: "a var cannot be written", rego: `[x]`},
	} {
		t.Run(tc.note, func(t *testing.T) {
			term, err := ast.ParseTerm(tc.rego)
			if err != nil {
				t.Fatal(err)
			}
			checkResultJSON(t, term.Value)
		})
	}
	for _, tc := range []struct {
		note  string
		value ast.Value
	}{
		{"invalid UTF-8", ast.String("a\xffb\xc3")},
		{"number that is no JSON number", ast.Number("0x10")},
		{"empty number", ast.Number("")},
		{"number with a plus", ast.Number("+1")},
		{"lazy object", ast.LazyObject(map[string]any{"b": 1.5, "a": []any{"<"}})},
		{"lazy object nested", ast.NewObject(ast.Item(ast.StringTerm("x"), ast.NewTerm(ast.LazyObject(map[string]any{"k": 1}))))},
	} {
		t.Run(tc.note, func(t *testing.T) {
			checkResultJSON(t, tc.value)
		})
	}
	forJSONCaseValues(t, checkResultJSON)
}

// forJSONCaseValues runs check on the value of every valid jsonCases
// document, each in its own subtest.
func forJSONCaseValues(t *testing.T, check func(*testing.T, ast.Value)) {
	for _, tc := range jsonCases {
		if tc.invalid {
			continue
		}
		t.Run("input "+tc.note, func(t *testing.T) {
			v, err := valueFromJSON([]byte(tc.json))
			if err != nil {
				t.Skip(err) // out of range numbers
			}
			check(t, v)
		})
	}
}

// TestEvaluateRecords: Evaluate returns the input as json.Marshal writes it
// and the decision as rego's Go result marshals, on real inputs.
func TestEvaluateRecords(t *testing.T) {
	ctx := context.Background()
	e, err := New(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		note string
		doc  any
	}{
		{"read turn", readInput(t)},
		{"plan submission", plan200Input(t)},
		{"indented raw message", indentedReadInput(t)},
	} {
		t.Run(tc.note, func(t *testing.T) {
			var out turnDecision
			in, res, err := e.Evaluate(ctx, tc.doc, &out)
			if err != nil {
				t.Fatal(err)
			}
			wantIn, _ := json.Marshal(tc.doc)
			if !bytes.Equal(in, wantIn) {
				t.Errorf("input JSON differs from json.Marshal:\n got %s\nwant %s", in, wantIn)
			}
			var doc any
			_ = json.Unmarshal(in, &doc)
			rs, err := e.query.Eval(ctx, rego.EvalInput(doc))
			if err != nil {
				t.Fatal(err)
			}
			wantRes, _ := json.Marshal(rs[0].Expressions[0].Value)
			if !bytes.Equal(res, wantRes) {
				t.Errorf("result JSON differs:\n got %s\nwant %s", res, wantRes)
			}
			var wantOut turnDecision
			_ = json.Unmarshal(wantRes, &wantOut)
			gotOut, _ := json.Marshal(out)
			wantOutJSON, _ := json.Marshal(wantOut)
			if out.Allow == nil || !bytes.Equal(gotOut, wantOutJSON) {
				t.Errorf("decoded decision %s, want %s", gotOut, wantOutJSON)
			}
		})
	}
}

// TestMalformedMessage: a decision that is not an object is named by its
// Go type, as before results came back in OPA's form.
func TestMalformedMessage(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		note, value, want string
	}{
		{"boolean", "true", "policy malformed: the decision is bool, not an object"},
		{"number", "1", "policy malformed: the decision is json.Number, not an object"},
		{"string", `"x"`, "policy malformed: the decision is string, not an object"},
		{"null", "null", "policy malformed: the decision is <nil>, not an object"},
		{"array", "[1]", "policy malformed: the decision is []interface {}, not an object"},
		{"set", "{1}", "policy malformed: the decision is []interface {}, not an object"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			d := t.TempDir()
			if err := os.WriteFile(filepath.Join(d, "p.rego"), []byte("package mcpc.main\n\ndecision := "+tc.value+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			e, err := New(ctx, Options{BundlePath: d})
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = e.Evaluate(ctx, map[string]any{}, nil)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err %v, want %s", err, tc.want)
			}
		})
	}
}

// indentedReadInput is the read turn input as explain-deny passes a
// recorded one, but indented and with characters json.Marshal escapes.
func indentedReadInput(t *testing.T) json.RawMessage {
	doc := readInput(t)
	doc["prompt"] = "<b>Migrate</b> & \u2028 done"
	raw, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return json.RawMessage(bytes.ReplaceAll(raw, []byte(`\u003c`), []byte("<")))
}

// FuzzResultJSON: any string, as a value and as a key, and any JSON
// document read by valueFromJSON, is written as json.Marshal writes it.
func FuzzResultJSON(f *testing.F) {
	for _, s := range []string{"", "a", "<&>", "\u2028\u2029", "a\xffb", "\x00\x1f\x7f", `"\`, "😀"} {
		f.Add(s)
	}
	for _, tc := range jsonCases {
		if len(tc.json) < 1000 {
			f.Add(tc.json)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkResultJSON(t, ast.String(s))
		obj := ast.NewObject()
		obj.Insert(ast.StringTerm(s), ast.StringTerm(s))
		obj.Insert(ast.StringTerm("k"), ast.BooleanTerm(true))
		checkResultJSON(t, obj)
		if v, err := valueFromJSON([]byte(s)); err == nil {
			checkResultJSON(t, v)
		}
	})
}
