package indexer

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// extraction is the golden view of an index: every fact the extractors
// produced for testdata/workspace.
type extraction struct {
	Files    []string            `json:"files"`
	Symbols  map[string][]Symbol `json:"symbols"`
	Edges    []Edge              `json:"edges"`
	Usages   []Usage             `json:"usages"`
	Problems []Problem           `json:"problems"`
}

// TestExtractionGolden compares the whole extraction of the test workspace
// with testdata/extraction.golden.json. Run with -update to rewrite it after
// an intended change, then review the diff.
func TestExtractionGolden(t *testing.T) {
	ix, _ := indexWorkspace(t, copyWorkspace(t))
	got := extraction{Files: ix.Files(), Symbols: map[string][]Symbol{}, Edges: ix.Edges(), Usages: ix.Usages(""), Problems: ix.Problems()}
	for _, f := range got.Files {
		if s := ix.FileSymbols(f); len(s) > 0 {
			got.Symbols[f] = s
		}
	}
	data, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	golden := filepath.Join("testdata", "extraction.golden.json")
	if *update {
		if err := os.WriteFile(golden, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(want, data) {
		t.Errorf("extraction differs from %s; run go test ./internal/indexer -run Golden -update and review the diff\n%s", golden, data)
	}
}
