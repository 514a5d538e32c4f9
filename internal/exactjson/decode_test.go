package exactjson

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestDecodeProblems(t *testing.T) {
	tests := []struct {
		note string
		doc  string
		want []Problem
	}{
		{note: "exact keys", doc: `{"verb":"x","args":{"targetFile":"a","edits":[{"op":"replace_text"}]}}`},
		{note: "same key in sibling objects", doc: `[{"a":1},{"a":2}]`},
		{note: "same key at two depths", doc: `{"a":{"a":1}}`},
		{note: "duplicate at top level", doc: `{"verb":"a","verb":"b"}`,
			want: []Problem{{Path: "verb", Message: `duplicate key "verb"`}}},
		{note: "case twin in a node", doc: `{"args":{"planGraph":{"nodes":[{"nodeId":"n"},{"targetFile":"a","targetfile":"b"}]}}}`,
			want: []Problem{{Path: "args.planGraph.nodes[1].targetfile", Message: `key "targetfile" differs only in case from key "targetFile" in the same object`}}},
		{note: "dotless i folds to I as encoding/json matches it", doc: `{"targetFile":"a","targetF\u0131le":"b"}`,
			want: []Problem{{Path: "targetFıle", Message: `key "targetFıle" differs only in case from key "targetFile" in the same object`}}},
		{note: "Kelvin sign folds to K", doc: `{"kind":"change","\u212Aind":"side_effect"}`,
			want: []Problem{{Path: "\u212Aind", Message: "key \"\u212Aind\" differs only in case from key \"kind\" in the same object"}}},
		{note: "long s folds to S", doc: `{"sideEffectType":"a","\u017FideEffectType":"b"}`,
			want: []Problem{{Path: "\u017FideEffectType", Message: "key \"\u017FideEffectType\" differs only in case from key \"sideEffectType\" in the same object"}}},
		{note: "escaped duplicate", doc: `{"op":"a","\u006fp":"b"}`,
			want: []Problem{{Path: "op", Message: `duplicate key "op"`}}},
		{note: "twin in a large object", doc: largeObject(40, `"K30":1`),
			want: []Problem{{Path: "K30", Message: `key "K30" differs only in case from key "k30" in the same object`}}},
		{note: "duplicate in a large object", doc: largeObject(40, `"k3":1`),
			want: []Problem{{Path: "k3", Message: `duplicate key "k3"`}}},
	}
	for _, tc := range tests {
		t.Run(tc.note, func(t *testing.T) {
			_, probs, err := Decode([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(probs, tc.want) {
				t.Fatalf("problems %#v, want %#v", probs, tc.want)
			}
		})
	}
}

func largeObject(n int, extra string) string {
	doc := "{"
	for i := range n {
		doc += `"k` + itoa(i) + `":0,`
	}
	return doc + extra + "}"
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestDecodeMatchesEncodingJSON(t *testing.T) {
	for _, doc := range []string{
		`null`, `true`, ` false `, `0`, `-1.5e3`, `"a\"b\\c\u00e9\ud83d\ude00"`, "\"\xff\"", `[]`, `{}`,
		`{"a":[1,{"b":null}],"c":"d"}`, `[[[[]]]]`, `{"":1}`,
	} {
		t.Run(doc, func(t *testing.T) {
			var want any
			if err := json.Unmarshal([]byte(doc), &want); err != nil {
				t.Fatal(err)
			}
			got, probs, err := Decode([]byte(doc))
			if err != nil || len(probs) > 0 || !reflect.DeepEqual(got, want) {
				t.Fatalf("Decode = %#v, %v, %v; want %#v", got, probs, err, want)
			}
		})
	}
	for _, doc := range []string{``, `{`, `{"a":}`, `[1,]`, `1e400`, `{"a":1e999}`, `"\ud800`, `{} {}`} {
		t.Run("invalid "+doc, func(t *testing.T) {
			if _, _, err := Decode([]byte(doc)); err == nil {
				t.Fatal("no error")
			}
		})
	}
}
