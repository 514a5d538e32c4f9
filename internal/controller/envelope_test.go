package controller

import (
	"encoding/json"
	"testing"
)

// The envelope's text in the input is what encoding its map gave before it
// was kept: policy and the decision records see the same document.
func TestEnvelopeTextIsTheMapsEncoding(t *testing.T) {
	for _, tc := range []struct {
		note string
		key  envelopeKey
	}{
		{note: "work", key: envelopeKey{"work-1", "agent-1", "run-1", "snap-1", "/repo", "pack-1", "sha256:ab", "strategy-1"}},
		{note: "empty values", key: envelopeKey{workID: "work-2"}},
		{note: "characters json escapes", key: envelopeKey{workID: "w<&>\"\\", root: "/r\u2028/é", strategyID: "\x01"}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			v := envelopeValuesOf(tc.key, "v1")
			want, err := json.Marshal(v.asMap())
			if err != nil {
				t.Fatal(err)
			}
			text, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(struct {
				E envelopeFacts `json:"e"`
			}{envelopeFacts{values: v, text: text}})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != `{"e":`+string(want)+`}` {
				t.Fatalf("envelope text\n got %s\nwant %s", got, want)
			}
		})
	}
	got, err := json.Marshal(envelopeFacts{})
	if err != nil || string(got) != "{}" {
		t.Fatalf("the empty envelope is %s (%v), want {}", got, err)
	}
}
