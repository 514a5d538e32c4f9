package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

func TestProbe(t *testing.T) {
	f := newFixture(t, copyWorkspace(t))
	sum := f.sync(t, false)
	b, _ := json.MarshalIndent(sum, "", " ")
	fmt.Println(string(b))
	for _, e := range f.ix.Edges() {
		fmt.Println(e)
	}
	for _, s := range f.ix.AllSymbols() {
		fmt.Println(s.File, s.Kind, s.Name, s.Container)
	}
	n, e, _ := f.g.Counts(context.Background())
	fmt.Println(n, e)
}
