package schemas

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestMissingProperties(t *testing.T) {
	cases := []struct {
		note, msg string
		want      []string
		ok        bool
	}{
		{note: "one", msg: "missing properties: 'need'", want: []string{"need"}, ok: true},
		{note: "two", msg: "missing properties: 'verb', 'args'", want: []string{"verb", "args"}, ok: true},
		{note: "escaped quote and backslash", msg: `missing properties: 'it\'s', 'a\\b', 'x"y'`, want: []string{"it's", `a\b`, `x"y`}, ok: true},
		{note: "comma inside a name", msg: "missing properties: 'a, b', 'c'", want: []string{"a, b", "c"}, ok: true},
		{note: "another message", msg: "expected object, but got string"},
		{note: "unterminated", msg: "missing properties: 'need"},
		{note: "unquoted", msg: "missing properties: need"},
		{note: "none", msg: "missing properties: "},
	}
	for _, tc := range cases {
		t.Run(tc.note, func(t *testing.T) {
			got, ok := missingProperties(tc.msg)
			if ok != tc.ok || !slices.Equal(got, tc.want) {
				t.Fatalf("missingProperties(%q) = %q, %v; want %q, %v", tc.msg, got, ok, tc.want, tc.ok)
			}
		})
	}
}

// TestCheckMissingPropertyPaths: a missing required property is reported at
// its own path, one problem per property, so the request rule that also
// requires it reports the fault once (invalid-args' _schema_error_at).
func TestCheckMissingPropertyPaths(t *testing.T) {
	rc, err := NewRequestChecker()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		note, doc string
		want      []string
		shape     bool // the problem quotes the shape expected of args
	}{
		{note: "escalate without need", doc: `{"verb":"escalate","args":{"type":"scope_expand"}}`, want: []string{"args.need: missing property"}, shape: true},
		{note: "search without pattern", doc: `{"verb":"search_codebase_text","args":{}}`, want: []string{"args.pattern: missing property"}, shape: true},
		{note: "no verb", doc: `{"args":{}}`, want: []string{"verb: missing property"}},
	}
	for _, tc := range cases {
		t.Run(tc.note, func(t *testing.T) {
			var doc any
			if err := json.Unmarshal([]byte(tc.doc), &doc); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range rc.Check(doc) {
				got = append(got, p.Path+": "+p.Message)
				if tc.shape && p.Expected == "" {
					t.Errorf("%s: no expected shape", p.Path)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}
