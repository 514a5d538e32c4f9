package controller

import (
	"context"
	"testing"

	"github.com/mcpc/mcpc/internal/store"
)

// The process session's row is taken from memory only once the
// transaction that wrote it committed, and only the last write's.
func TestOwnSessionRow(t *testing.T) {
	for _, tc := range []struct {
		note  string
		steps func(b *budgetBook, own, other *store.Session)
		want  *int // the used tokens read from memory; nil: read from the store
	}{
		{note: "nothing written", steps: func(*budgetBook, *store.Session, *store.Session) {}},
		{note: "committed", steps: func(b *budgetBook, own, _ *store.Session) { b.wrote(own); b.settled(own, true) }, want: ptr(7)},
		{note: "not committed yet", steps: func(b *budgetBook, own, _ *store.Session) { b.wrote(own) }},
		{note: "rolled back", steps: func(b *budgetBook, own, _ *store.Session) { b.wrote(own); b.settled(own, false) }},
		{note: "a later write not committed", steps: func(b *budgetBook, own, _ *store.Session) {
			later := *own
			later.UsedTokens = 9
			b.wrote(own)
			b.wrote(&later)
			b.settled(own, true)
		}},
		{note: "a pending decision charged it", steps: func(b *budgetBook, own, _ *store.Session) {
			b.wrote(own)
			b.settled(own, true)
			b.forget(own.ID)
		}},
		{note: "a pending decision charged another", steps: func(b *budgetBook, own, other *store.Session) {
			b.wrote(own)
			b.settled(own, true)
			b.forget(other.ID)
		}, want: ptr(7)},
		{note: "another session", steps: func(b *budgetBook, _, other *store.Session) { b.wrote(other); b.settled(other, true) }},
	} {
		t.Run(tc.note, func(t *testing.T) {
			b := &budgetBook{}
			id := b.session(context.Background())
			own, other := &store.Session{ID: id, UsedTokens: 7}, &store.Session{ID: "mcp:x", UsedTokens: 7}
			tc.steps(b, own, other)
			for _, sid := range []string{id, "mcp:x"} {
				row, ok := b.ownRow(sid)
				if sid != id || tc.want == nil {
					if ok {
						t.Fatalf("%s: read from memory (%+v), want from the store", sid, row)
					}
					continue
				}
				if !ok || row.UsedTokens != *tc.want {
					t.Fatalf("%s: %+v %v, want %d from memory", sid, row, ok, *tc.want)
				}
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
