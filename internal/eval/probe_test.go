package eval

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/indexer"
	"github.com/mcpc/mcpc/internal/retrieval"
)

func TestProbeRows(t *testing.T) {
	cache := os.Getenv("PROBE_CACHE")
	if cache == "" {
		t.Skip()
	}
	rows, _ := ReadSet("/work/shared/eval/retrieval/outline__outline.jsonl")
	want := map[int]bool{}
	for _, s := range strings.Split(os.Getenv("PROBE_ROWS"), ",") {
		n, _ := strconv.Atoi(s)
		want[n] = true
	}
	for i, row := range rows {
		if !want[i+1] {
			continue
		}
		abs := filepath.Join(cache, "ws", row.Parent)
		sum := sha256.Sum256([]byte(abs))
		db, _ := OpenDB(filepath.Join(cache, "db", hex.EncodeToString(sum[:8])+".db"))
		t0 := time.Now()
		ix, err := indexer.Open(db, indexer.Options{Root: abs})
		if err != nil {
			t.Fatal(err)
		}
		t1 := time.Now()
		ix.Files()
		t2 := time.Now()
		rs := retrieval.Rank(ix, retrieval.Query{Prompt: row.Prompt, Limit: 300})
		t3 := time.Now()
		retrieval.Rank(ix, retrieval.Query{Prompt: row.Prompt, Limit: 40})
		t4 := time.Now()
		fmt.Printf("\n#%d %s  open=%v view=%v rank1=%v rank2=%v\n", i+1, row.Prompt, t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3))
		gold := map[string]bool{}
		for _, g := range row.ChangedFiles {
			gold[g] = true
		}
		for j, r := range rs {
			mark := " "
			if gold[r.File] {
				mark = "*"
			}
			if j < 12 || gold[r.File] {
				fmt.Printf("%s %3d %.3f %-70s %v\n", mark, j+1, r.Score, r.File, r.Lanes)
			}
		}
		db.Close()
	}
}
