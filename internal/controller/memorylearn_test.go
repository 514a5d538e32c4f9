package controller

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/memory"
	"github.com/mcpc/mcpc/internal/pathscope"
)

// TestFewShotCacheHolds: a cached answer is reused only for the same
// records file, the same policies and a clock before its validUntil.
func TestFewShotCacheHolds(t *testing.T) {
	root := t.TempDir()
	res, err := pathscope.New(root)
	if err != nil {
		t.Fatal(err)
	}
	write := func(body string) memory.Stamp {
		if err := os.MkdirAll(filepath.Join(root, ".ai", "memory"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, memory.RecordsFile), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return memory.StampOf(res)
	}
	t0 := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	first := write(`[{"id": "a"}]`)
	second := write(`[{"id": "a"}, {"id": "b"}]`)
	if first == second {
		t.Fatal("two versions of records.json have one stamp")
	}
	shots := []fewShot{{ID: "a"}}
	for _, tc := range []struct {
		note    string
		until   time.Time
		stamp   memory.Stamp
		version string
		now     time.Time
		hit     bool
	}{
		{note: "same facts, before the edge", until: t0.Add(time.Hour), stamp: second, version: "v1", now: t0, hit: true},
		{note: "no edge ahead", stamp: second, version: "v1", now: t0.Add(1000 * time.Hour), hit: true},
		{note: "at the edge", until: t0.Add(time.Hour), stamp: second, version: "v1", now: t0.Add(time.Hour)},
		{note: "records changed", until: t0.Add(time.Hour), stamp: first, version: "v1", now: t0},
		{note: "policies changed", until: t0.Add(time.Hour), stamp: second, version: "v2", now: t0},
	} {
		t.Run(tc.note, func(t *testing.T) {
			var fc fewShotCache
			if _, ok := fc.get(second, "v1", t0); ok {
				t.Fatal("an empty cache answered")
			}
			fc.put(second, "v1", tc.until, shots)
			got, ok := fc.get(tc.stamp, tc.version, tc.now)
			if ok != tc.hit || (ok && len(got) != 1) {
				t.Errorf("get = %v, %v; want hit %v", got, ok, tc.hit)
			}
		})
	}
}
