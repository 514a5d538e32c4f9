package controller

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/ledger"
	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/internal/store"
)

// ledgerController is a Controller with just what appendLedger uses.
func ledgerController(t testing.TB) *Controller {
	t.Helper()
	root := t.TempDir()
	res, err := pathscope.New(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".ai", "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(root, ".ai", "tmp", "mcpc.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &Controller{root: res.Root(), paths: res, store: st, now: time.Now, log: zerolog.Nop()}
}

func sampleRecord(i int) ledger.Record {
	return ledger.Record{ID: ledger.NewID(), Timestamp: time.Now().UTC().Format(time.RFC3339Nano), IntentID: "work-1",
		MutationClass: ledger.ASTRefactor, VCS: ledger.VCS{RevisionID: "abc"},
		Files: []ledger.File{{RelativePath: "src/app/a.ts", Conversations: []ledger.Conversation{{URL: "work-1",
			Contributor: ledger.Contributor{EntityType: "AI", ModelIdentifier: "agent-1"},
			Ranges:      []ledger.Range{{StartLine: i, EndLine: i + 1, ContentHash: "sha256:0"}}}}}}}
}

// TestAppendLedgerConcurrent: appends from many goroutines, each in its own
// store transaction, form one unbroken chain that reaches the anchor.
func TestAppendLedgerConcurrent(t *testing.T) {
	c := ledgerController(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 10 {
				err := c.store.Update(ctx, func(tx *store.Tx) error { return c.appendLedger(ctx, tx, sampleRecord(g*10+i)) })
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	f, err := os.Open(filepath.Join(c.root, traceLedger))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var anchor ledger.Head
	if err := c.store.View(ctx, func(tx *store.Tx) (err error) {
		anchor.Seq, anchor.Hash, err = tx.LedgerHead(ctx, traceLedger)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	rep, err := ledger.Verify(f, anchor)
	if err != nil || !rep.OK || rep.Records != 80 || anchor.Seq != 80 {
		t.Fatalf("report %+v (%v), anchor %+v", rep, err, anchor)
	}
}

// BenchmarkAppendLedger is one ledger append as a patch makes it (lock,
// read of the last record, seal, append, anchor) on a ledger of 10,000
// records, inside a store transaction.
func BenchmarkAppendLedger(b *testing.B) {
	c := ledgerController(b)
	ctx := context.Background()
	head := ledger.Head{Hash: ledger.Genesis}
	var buf []byte
	for i := range 10000 {
		line, next, err := ledger.Seal(sampleRecord(i), head)
		if err != nil {
			b.Fatal(err)
		}
		buf, head = append(buf, line...), next
	}
	if err := c.paths.WriteFile(traceLedger, buf, true); err != nil {
		b.Fatal(err)
	}
	rec := sampleRecord(1)
	for b.Loop() {
		if err := c.store.Update(ctx, func(tx *store.Tx) error { return c.appendLedger(ctx, tx, rec) }); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAppendLedgerAfter: a ledger written before records were chained
// keeps its lines and the chain starts after them; after a torn last line
// the next record starts a line of its own and verify names the torn one.
func TestAppendLedgerAfter(t *testing.T) {
	for _, tc := range []struct {
		note     string
		existing string
		ok       bool
		legacy   int
		badLine  int
	}{
		{note: "legacy records", existing: `{"id":"a","intent_id":"w"}` + "\n" + `{"id":"b","intent_id":"w"}` + "\n", ok: true, legacy: 2},
		{note: "torn last line", existing: `{"id":"a","intent_id":"w"}` + "\n" + `{"seq":1,"id":"b"`, legacy: 1, badLine: 2},
	} {
		t.Run(tc.note, func(t *testing.T) {
			c := ledgerController(t)
			ctx := context.Background()
			if err := c.paths.WriteFile(traceLedger, []byte(tc.existing), true); err != nil {
				t.Fatal(err)
			}
			for i := range 2 {
				if err := c.store.Update(ctx, func(tx *store.Tx) error { return c.appendLedger(ctx, tx, sampleRecord(i)) }); err != nil {
					t.Fatal(err)
				}
			}
			raw, err := os.ReadFile(filepath.Join(c.root, traceLedger))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := ledger.Verify(bytes.NewReader(raw), ledger.Head{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK != tc.ok || rep.Legacy != tc.legacy || (!tc.ok && rep.Problem.Line != tc.badLine) {
				t.Fatalf("report %+v %+v\n%s", rep, rep.Problem, raw)
			}
			if !bytes.HasPrefix(raw, []byte(tc.existing)) {
				t.Errorf("the existing lines changed")
			}
		})
	}
}
