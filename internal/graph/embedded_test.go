package graph_test

import (
	"path/filepath"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
	"github.com/mcpc/mcpc/internal/graph/storetest"
	"github.com/mcpc/mcpc/internal/store"
)

func openEmbedded(t *testing.T) graph.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "mcpc.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return graph.OpenEmbedded(st.DB())
}

func TestEmbeddedBehaviour(t *testing.T) { storetest.Run(t, openEmbedded) }
