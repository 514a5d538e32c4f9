package exactjson

import (
	"encoding/json"
	"reflect"
	"testing"
	"unicode"
)

// FuzzDecode holds Decode to encoding/json: the same documents are JSON, a
// document without problems decodes to the same value, and no object of a
// document without problems holds two keys encoding/json would match to
// one struct field.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"verb":"submit_execution_plan","args":{"planGraph":{"nodes":[{"nodeId":"n1","kind":"change","targetFile":"a.ts"}]}}}`))
	f.Add([]byte(`{"targetFile":"a","targetfile":"b"}`))
	f.Add([]byte(`{"kind":"x","\u212Aind":"y"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var want any
		wantErr := json.Unmarshal(data, &want)
		got, probs, err := Decode(data)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("Decode error %v, encoding/json error %v", err, wantErr)
		}
		if err != nil || len(probs) > 0 {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Decode = %#v, encoding/json = %#v", got, want)
		}
		checkNoTwins(t, got)
	})
}

func checkNoTwins(t *testing.T, v any) {
	switch v := v.(type) {
	case map[string]any:
		seen := map[string]string{}
		for k, e := range v {
			f := jsonFold(k)
			if other, ok := seen[f]; ok {
				t.Fatalf("keys %q and %q match one field in encoding/json and were not reported", k, other)
			}
			seen[f] = k
			checkNoTwins(t, e)
		}
	case []any:
		for _, e := range v {
			checkNoTwins(t, e)
		}
	}
}

// jsonFold is encoding/json's key folding (foldName).
func jsonFold(s string) string {
	out := []rune{}
	for _, r := range s {
		out = append(out, unicode.ToUpper(unicode.ToLower(r)))
	}
	return string(out)
}
