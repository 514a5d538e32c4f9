package memory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/pathscope"
)

func testLearner(t *testing.T, ledgerMax int64) (*Learner, *pathscope.Resolver) {
	t.Helper()
	res, err := pathscope.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{}
	cfg.Memory.FrictionLedgerMaxBytes = ledgerMax
	cfg.Memory.RejectionThreshold = 3
	cfg.Graph.Anchors.MaxDepth = 3
	l := NewLearner(res, cfg, nil, zerolog.Nop())
	t.Cleanup(l.Close)
	return l, res
}

func denial(code, file string) Denial {
	return Denial{At: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC), Verb: "read_file_lines", Codes: []string{code},
		Messages: []string{code + " message"}, Files: []string{file}, Strategy: "s", Work: "work-1", Seq: 1}
}

func TestOneCandidatePerSignature(t *testing.T) {
	l, res := testLearner(t, 1<<20)
	for range 5 {
		l.Note(denial("PACK_SCOPE_VIOLATION", "src/app/x.ts"))
	}
	l.Note(denial("PACK_SCOPE_VIOLATION", "lib/y.ts")) // another anchor, once: no candidate
	l.Sync()
	records, err := Load(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 1 || records[0]["state"] != "pending" || records[0]["occurrences"] != float64(3) {
		t.Fatalf("records = %v", records)
	}
	if probs := Validate(records[0]); len(probs) > 0 {
		t.Errorf("the candidate fails the record schema: %v", probs)
	}
	if got := len(ReadLedger(res)); got != 6 {
		t.Errorf("ledger has %d entries, want 6", got)
	}
}

func TestRejectedSignatureStaysRejectedExpiredIsLearnedAgain(t *testing.T) {
	for _, tc := range []struct {
		note  string
		state string
		want  int
	}{
		{"rejected: no new candidate", "rejected", 1},
		{"expired: a new generation", "expired", 2},
		{"approved: nothing new", "approved", 1},
	} {
		t.Run(tc.note, func(t *testing.T) {
			l, res := testLearner(t, 1<<20)
			for range 3 {
				l.Note(denial("X_CODE", "src/a.ts"))
			}
			l.Sync()
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			must(Update(res, func(rs []Record) ([]Record, bool, error) { rs[0]["state"] = tc.state; return rs, true, nil }))
			l.Note(denial("X_CODE", "src/a.ts"))
			l.Sync()
			records, err := Load(res)
			must(err)
			if len(records) != tc.want {
				t.Fatalf("%d records, want %d: %v", len(records), tc.want, records)
			}
			if tc.want == 2 && !strings.HasSuffix(records[1]["id"].(string), "-2") {
				t.Errorf("second generation id = %v", records[1]["id"])
			}
		})
	}
}

func TestLedgerRotates(t *testing.T) {
	l, res := testLearner(t, 2048)
	for range 40 {
		l.Note(denial("ROTATE_ME", "src/a.ts"))
	}
	l.Sync()
	cur, err := os.Stat(filepath.Join(res.Root(), LedgerFile))
	if err != nil {
		t.Fatal(err)
	}
	if cur.Size() > 2048 {
		t.Errorf("ledger is %d bytes, past its 2048-byte limit", cur.Size())
	}
	if _, err := os.Stat(filepath.Join(res.Root(), LedgerFile+".1")); err != nil {
		t.Errorf("no rotated ledger: %v", err)
	}
}

func TestReview(t *testing.T) {
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		note, from, to string
		ok             bool
	}{
		{"approve pending", "pending", "approved", true},
		{"approve provisional", "provisional", "approved", true},
		{"reject approved", "approved", "rejected", true},
		{"rejected stays rejected", "rejected", "approved", false},
		{"expired is not revived", "expired", "approved", false},
		{"no other target", "pending", "retired", false},
	} {
		t.Run(tc.note, func(t *testing.T) {
			res, err := pathscope.New(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if err := Update(res, func([]Record) ([]Record, bool, error) {
				return []Record{{"id": "m1", "state": tc.from, "enforcementType": "few_shot"}}, true, nil
			}); err != nil {
				t.Fatal(err)
			}
			_, err = Review(res, "m1", tc.to, "alice", "because", now)
			if (err == nil) != tc.ok {
				t.Fatalf("Review %s→%s: err %v, want ok=%v", tc.from, tc.to, err, tc.ok)
			}
			records, _ := Load(res)
			log, _ := os.ReadFile(filepath.Join(res.Root(), ChangelogFile))
			if tc.ok && (records[0]["state"] != tc.to || !strings.Contains(string(log), `"by":"alice"`)) {
				t.Errorf("record %v, changelog %s", records[0], log)
			}
			if !tc.ok && (records[0]["state"] != tc.from || len(log) > 0) {
				t.Errorf("a refused review changed something: %v %s", records[0], log)
			}
		})
	}
}

func TestPendingFromFrictionIsBounded(t *testing.T) {
	l, res := testLearner(t, 16<<20)
	for i := range maxPendingFromFriction + 20 {
		for range 3 {
			l.Note(denial("SPRAY", fmt.Sprintf("junk/d%d/f.ts", i)))
		}
	}
	l.Sync()
	records, err := Load(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != maxPendingFromFriction {
		t.Errorf("%d candidates, want the bound %d", len(records), maxPendingFromFriction)
	}
}
