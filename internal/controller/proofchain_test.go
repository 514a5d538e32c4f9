package controller

import (
	"encoding/json"
	"testing"
)

func TestChainsWithin(t *testing.T) {
	raw := json.RawMessage(`[{"kind":"ag-grid","steps":[{"role":"table","file":"a.html","symbol":"ag-grid-angular","line":3},{"role":"service","file":"secrets/key.ts","symbol":"KeyService","node":"symbol:x"}],"edges":[{"from":"table","to":"service"}]}]`)
	for _, tc := range []struct {
		note  string
		files []string
		want  string
	}{
		{"every file in the pack: unchanged", []string{"a.html", "secrets/key.ts"},
			`[{"edges":[{"from":"table","to":"service"}],"kind":"ag-grid","steps":[{"file":"a.html","line":3,"role":"table","symbol":"ag-grid-angular"},{"file":"secrets/key.ts","node":"symbol:x","role":"service","symbol":"KeyService"}]}]`},
		{"a step outside the pack loses its file", []string{"a.html"},
			`[{"edges":[{"from":"table","to":"service"}],"kind":"ag-grid","steps":[{"file":"a.html","line":3,"role":"table","symbol":"ag-grid-angular"},{"outsidePack":true,"role":"service"}]}]`},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := string(chainsWithin(raw, tc.files)); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	if chainsWithin(nil, nil) != nil {
		t.Fatal("no chains, no record")
	}
}
