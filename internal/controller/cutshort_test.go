package controller

import (
	"context"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/secrets"
)

func TestCutShort(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	clean := Candidate{File: "a.ts", SecretFindings: []string{}}
	unscanned := Candidate{File: "b.ts", SecretFindings: []string{secrets.IncompleteRule}}
	for _, tc := range []struct {
		note  string
		ctx   context.Context
		cands []Candidate
		want  *rankingCutShort
	}{
		{"ranked and scanned in time", context.Background(), []Candidate{clean}, nil},
		{"the step's deadline passed", done, []Candidate{clean}, &rankingCutShort{LimitMs: 2000, Ranked: 1}},
		{"the scan budget left a candidate unscanned", context.Background(), []Candidate{clean, unscanned}, &rankingCutShort{LimitMs: 2000, Ranked: 2, Unscanned: 1}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			got := cutShort(tc.ctx.Err() != nil, 2*time.Second, tc.cands)
			if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
				t.Errorf("cutShort = %+v, want %+v", got, tc.want)
			}
		})
	}
}
