package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
)

func TestProbe(t *testing.T) {
	f := newFixture(t, copyWorkspace(t))
	f.sync(t, false)
	cb := &graph.ChainBuilder{Store: f.g, Root: f.root}
	cs, err := cb.Build(context.Background(), graph.ChainRequest{AgGrid: true, Federation: true})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(cs, "", " ")
	fmt.Println(string(b))
}
