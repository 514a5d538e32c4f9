package retrieval

import (
	"reflect"
	"testing"
)

// TestDeriveSymbolTermsMatchesPerSymbol checks the symbol tables derive
// builds through per-name slots against appending every symbol's terms
// to the map one by one, as derive did before.
func TestDeriveSymbolTermsMatchesPerSymbol(t *testing.T) {
	ix := testIndex(t)
	cacheMu.Lock()
	cache = nil
	cacheMu.Unlock()
	d := derive(ix)
	c := ix.Corpus()
	wantTerms := map[string][]int32{}
	var wantSymbols []symInfo
	for _, s := range ix.AllSymbols() {
		doc, ok := c.Doc(s.File)
		if !ok || s.Kind == "route" || s.Kind == "grid_column" {
			continue
		}
		terms := uniqueTerms(s.Name)
		id := int32(len(wantSymbols))
		wantSymbols = append(wantSymbols, symInfo{doc: doc, parts: len(terms)})
		for _, term := range terms {
			wantTerms[term] = append(wantTerms[term], id)
		}
	}
	if len(wantSymbols) == 0 {
		t.Fatal("the test index has no symbols")
	}
	if !reflect.DeepEqual(d.symbols, wantSymbols) {
		t.Errorf("symbols differ: %d, want %d", len(d.symbols), len(wantSymbols))
	}
	if !reflect.DeepEqual(d.symTerms, wantTerms) {
		t.Errorf("symbol terms differ: %d terms, want %d", len(d.symTerms), len(wantTerms))
	}
}
