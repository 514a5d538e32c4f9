package indexer

import (
	"context"
	"errors"
	"testing"
)

// TestDroppedRefsAfterAnotherWrite: when another process wrote the
// database after this index dropped its references, they are not read
// back as if they were this index's: the change is built from the
// database's facts, and the view is what a build from them gives.
func TestDroppedRefsAfterAnotherWrite(t *testing.T) {
	root := copyWorkspace(t)
	dbDir := t.TempDir()
	ix, err := Open(openDB(t, dbDir), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	ix.current()
	if !ix.refsDropped {
		t.Fatal("the references were kept after the view was built")
	}

	writeFile(t, root, "src/app/orders/orders.model.ts", []byte("export interface Order { id: string; total: number }\nexport const ORDER_KINDS = ['a'];\n"))
	other, err := Open(openDB(t, dbDir), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	ix.mu.Lock()
	err = ix.readRefs(nil)
	ix.mu.Unlock()
	if !errors.Is(err, errRefsMoved) {
		t.Fatalf("reading references after another process's write: %v, want errRefsMoved", err)
	}

	writeFile(t, root, "src/app/orders/orders.service.ts", []byte("import { Order } from './orders.model';\nexport class OrdersService { all(): Order[] { return []; } }\n"))
	if _, err := ix.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	compareViews(t, ix.current(), storedView(t, ix))
}
