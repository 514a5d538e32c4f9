package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestPackIsTheDecidedPack: the pack's limits are applied by policy, so the
// files the decision record holds are the files of the pack written and of
// the response, on initialize_work and on escalate alike.
func TestPackIsTheDecidedPack(t *testing.T) {
	ws := newWorkspace(t)
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"),
		[]byte(`{"pack": {"maxFiles": 2, "escalateMaxFiles": 1}}`), 0o644))
	a := startServer(t, ws)
	init := a.initialize("Fix the stock warning on the dashboard", "dashboard")
	esc := a.turn("escalate", map[string]any{"need": "the orders grid component with its ag-Grid columnDefs and cell renderer"})
	mustAllow(t, esc)
	for i, tc := range []struct {
		note  string
		files []string
		max   int
		ref   any // each turn's version of the pack document
	}{
		{note: "initialize_work", files: packFiles(init), max: 2, ref: init.ContextPack["ref"]},
		{note: "escalate", files: packFiles(esc), max: 3, ref: esc.ContextPack["ref"]},
	} {
		t.Run(tc.note, func(t *testing.T) {
			path := filepath.Join(ws, ".ai", "tmp", "work", a.work, "decisions", fmt.Sprintf("%06d.json", i+1))
			// Records are written in the pause after a turn, and not
			// atomically: read until the whole record is there.
			raw, err := os.ReadFile(path)
			for deadline := time.Now().Add(10 * time.Second); (err != nil || !json.Valid(raw)) && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
				raw, err = os.ReadFile(path)
			}
			must(t, err)
			var rec struct {
				Verb   string
				Result struct {
					Pack struct {
						Files []string `json:"files"`
					} `json:"pack"`
				} `json:"result"`
			}
			must(t, json.Unmarshal(raw, &rec))
			if rec.Verb != tc.note {
				t.Fatalf("record %d is of %s", i+1, rec.Verb)
			}
			if len(tc.files) == 0 || len(tc.files) > tc.max {
				t.Errorf("the pack has %d files, want 1 to %d: %v", len(tc.files), tc.max, tc.files)
			}
			if !slices.Equal(rec.Result.Pack.Files, tc.files) {
				t.Errorf("the decision selected %v, the pack holds %v", rec.Result.Pack.Files, tc.files)
			}
			packRaw, err := os.ReadFile(filepath.Join(ws, tc.ref.(string)))
			must(t, err)
			var written struct {
				Files []string `json:"files"`
			}
			must(t, json.Unmarshal(packRaw, &written))
			if !slices.Equal(written.Files, tc.files) {
				t.Errorf("%s holds %v, the response %v", tc.ref, written.Files, tc.files)
			}
		})
	}
}
