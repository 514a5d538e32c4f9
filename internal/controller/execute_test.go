package controller

import (
	"reflect"
	"testing"
)

func TestAppendExcluded(t *testing.T) {
	env := map[string]any{"file": ".env"}
	cfg := map[string]any{"file": ".ai/config/repo.json", "reason": "r"}
	for _, tc := range []struct {
		note       string
		have, more []map[string]any
		want       []map[string]any
	}{
		{"first escalate", nil, []map[string]any{cfg}, []map[string]any{cfg}},
		{"the same exclusion again", []map[string]any{cfg}, []map[string]any{cfg}, []map[string]any{cfg}},
		{"a new one after the old", []map[string]any{cfg}, []map[string]any{cfg, env}, []map[string]any{cfg, env}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := appendExcluded(tc.have, tc.more); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}
