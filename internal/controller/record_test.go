package controller

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/pathscope"
)

func TestRecorder(t *testing.T) {
	dir := t.TempDir()
	res, err := pathscope.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	var idled atomic.Int32 // records the idle upkeep was told of
	save := func(canonical string, data []byte) error { return res.WriteFile(canonical, data, true) }
	r := newRecorder(zerolog.Nop(), save, func(n int) bool { idled.Add(int32(n)); return true })
	r.backlog = 256         // bytes
	var paused atomic.Int32 // quiet moments Options.Pause ran in
	r.pause = func() { paused.Add(1) }
	rel := func(i int) string { return fmt.Sprintf("w/decisions/%06d.json", i) }
	path := func(i int) string { return filepath.Join(dir, rel(i)) }
	for i := 1; i <= 300; i++ { // past the backlog bound
		r.write(rel(i), []byte(fmt.Sprint(i)))
	}
	r.write(rel(301), []byte("301"))
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := os.Stat(path(301))
		if err == nil && idled.Load() == 301 && paused.Load() > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the idle pause: record 301: %v; idle upkeep told of %d records, want 301; pause ran %d times", err, idled.Load(), paused.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.write(rel(302), []byte("302"))
	r.close() // writes what is pending
	for _, i := range []int{1, 256, 300, 302} {
		if data, err := os.ReadFile(path(i)); err != nil || string(data) != fmt.Sprint(i) {
			t.Errorf("record %d: %q %v", i, data, err)
		}
	}
	r.write(rel(303), []byte("303")) // after close: at once
	if _, err := os.Stat(path(303)); err != nil {
		t.Errorf("a record after close was not written at once: %v", err)
	}
}

func TestDecisionRecordIsValidJSON(t *testing.T) {
	at := time.Date(2026, 11, 22, 9, 0, 0, 0, time.FixedZone("x", 3600))
	first := stageRecord{Name: stageRequest, Query: queryStage1, Input: []byte(`{"verb":"apply_code_patch"}`), Result: []byte(`{"allow":true,"verbStage":true}`)}
	verb := stageRecord{Name: stageVerb, Query: queryDecision}
	for _, tc := range []struct {
		note          string
		input, result []byte
		stages        []stageRecord
		want          string
	}{
		{"both", []byte(`{"verb":"escalate"}`), []byte(`{"allow":true}`), []stageRecord{{Name: stageRequest, Query: queryStage1}},
			`{"seq":7,"verb":"v\"x","agentId":"a","at":"2026-11-22T08:00:00Z","stage":"request","query":"data.mcpc.main.stage1","input":{"verb":"escalate"},"result":{"allow":true}}`},
		{"no result", []byte(`{}`), nil, nil,
			`{"seq":7,"verb":"v\"x","agentId":"a","at":"2026-11-22T08:00:00Z","stage":"verb","query":"data.mcpc.main.decision","input":{},"result":null}`},
		{"two stages", []byte(`{"verb":"apply_code_patch","patch":{}}`), []byte(`{"allow":false}`), []stageRecord{first, verb},
			`{"seq":7,"verb":"v\"x","agentId":"a","at":"2026-11-22T08:00:00Z","stage":"verb","query":"data.mcpc.main.decision","input":{"verb":"apply_code_patch","patch":{}},"result":{"allow":false},` +
				`"stages":[{"name":"request","query":"data.mcpc.main.stage1","input":{"verb":"apply_code_patch"},"result":{"allow":true,"verbStage":true}}]}`},
	} {
		t.Run(tc.note, func(t *testing.T) {
			got := decisionRecord(7, `v"x`, "a", at, tc.input, tc.result, tc.stages)
			if string(got) != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
			if !json.Valid(got) {
				t.Fatal("not valid JSON")
			}
		})
	}
}
