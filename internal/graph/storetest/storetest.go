// Package storetest is the behaviour suite every graph.Store must pass: the
// embedded store runs it always, Neo4j when NEO4J_URI is set. Both backends
// answer the same questions the same way, so the sync, proof chains and
// inventory never need to know which one they talk to.
package storetest

import (
	"context"
	"reflect"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
)

// Run runs the suite. open returns an empty-or-not store; Run clears it
// first (through Apply with Remove), so it may point at a shared database
// reserved for tests.
func Run(t *testing.T, open func(t *testing.T) graph.Store) {
	ctx := context.Background()
	a := group("a", "h1",
		[]graph.Node{node("n:a1", "File", "src/a1.ts", "a", map[string]any{"lang": "typescript", "lines": 12.0}),
			node("n:a2", "File", "src/a2.ts", "a", nil)},
		[]graph.Edge{edge("n:a1", "IMPORTS", "n:a2", "a", map[string]any{"symbol": "X"}),
			edge("n:a1", "IMPORTS", "n:missing", "a", nil)})
	b := group("b", "h1",
		[]graph.Node{node("n:b1", "Component", "adp-button", "b", nil), node("n:b2", "Component", "adp-card", "b", nil),
			node("n:b3", "Component", "sdf-button", "b", nil)},
		[]graph.Edge{edge("n:b1", "REFERENCES", "n:a1", "b", nil), edge("n:b2", "REFERENCES", "n:a2", "b", nil)})

	for _, tc := range []struct {
		note  string
		steps []graph.Change
		// wantErr says the last step fails; the graph must be as before it.
		wantErr bool
		check   func(t *testing.T, s graph.Store)
	}{
		{
			note:  "nodes, properties and edges read back; an edge to a missing node is not stored",
			steps: []graph.Change{{Groups: []graph.Group{a}}},
			check: func(t *testing.T, s graph.Store) {
				n, ok, err := s.Node(ctx, "n:a1")
				must(t, err)
				want := node("n:a1", "File", "src/a1.ts", "a", map[string]any{"lang": "typescript", "lines": 12.0})
				if !ok || !reflect.DeepEqual(n, want) {
					t.Fatalf("node: got %+v %v, want %+v", n, ok, want)
				}
				if _, ok, err := s.Node(ctx, "n:none"); err != nil || ok {
					t.Fatalf("missing node: ok=%v err=%v", ok, err)
				}
				es, err := s.Edges(ctx, "n:a1", graph.Out)
				must(t, err)
				wantEdges := []graph.Edge{edge("n:a1", "IMPORTS", "n:a2", "a", map[string]any{"symbol": "X"})}
				if !reflect.DeepEqual(es, wantEdges) {
					t.Fatalf("edges: got %+v, want %+v", es, wantEdges)
				}
				hs, err := s.Hashes(ctx)
				must(t, err)
				if !reflect.DeepEqual(hs, map[string]string{"a": "h1"}) {
					t.Fatalf("hashes: %v", hs)
				}
			},
		},
		{
			note:  "nodes by label and key prefix, ordered, limited",
			steps: []graph.Change{{Groups: []graph.Group{a, b}}},
			check: func(t *testing.T, s graph.Store) {
				ns, err := s.Nodes(ctx, "Component", "adp-", 0)
				must(t, err)
				if got := keys(ns); !reflect.DeepEqual(got, []string{"adp-button", "adp-card"}) {
					t.Fatalf("prefix: %v", got)
				}
				ns, err = s.Nodes(ctx, "Component", "", 1)
				must(t, err)
				if got := keys(ns); !reflect.DeepEqual(got, []string{"adp-button"}) {
					t.Fatalf("limit: %v", got)
				}
				ns, err = s.Nodes(ctx, "File", "adp-", 0)
				must(t, err)
				if len(ns) != 0 {
					t.Fatalf("other label: %v", keys(ns))
				}
				if _, err := s.Nodes(ctx, "Bad label", "", 0); err == nil {
					t.Fatal("a label that is not an identifier must be refused")
				}
			},
		},
		{
			note:  "edges into a node, filtered by type",
			steps: []graph.Change{{Groups: []graph.Group{a, b}}},
			check: func(t *testing.T, s graph.Store) {
				es, err := s.Edges(ctx, "n:a2", graph.In)
				must(t, err)
				if len(es) != 2 || es[0].Type != "IMPORTS" || es[1].Type != "REFERENCES" || es[1].From != "n:b2" {
					t.Fatalf("in edges: %+v", es)
				}
				es, err = s.Edges(ctx, "n:a2", graph.In, "REFERENCES")
				must(t, err)
				if len(es) != 1 || es[0].From != "n:b2" {
					t.Fatalf("typed in edges: %+v", es)
				}
				nodes, edges, err := s.Counts(ctx)
				must(t, err)
				if !reflect.DeepEqual(nodes, map[string]int{"File": 2, "Component": 3}) || !reflect.DeepEqual(edges, map[string]int{"IMPORTS": 1, "REFERENCES": 2}) {
					t.Fatalf("counts: %v %v", nodes, edges)
				}
			},
		},
		{
			note: "replacing a group drops the nodes it no longer makes, with every edge into them, and keeps the edges into the nodes it still makes",
			steps: []graph.Change{{Groups: []graph.Group{a, b}},
				{Groups: []graph.Group{group("a", "h2", []graph.Node{node("n:a1", "File", "src/a1.ts", "a", map[string]any{"lang": "ts"})}, nil)}}},
			check: func(t *testing.T, s graph.Store) {
				if _, ok, _ := s.Node(ctx, "n:a2"); ok {
					t.Fatal("n:a2 should be gone")
				}
				es, err := s.Edges(ctx, "n:b2", graph.Out)
				must(t, err)
				if len(es) != 0 {
					t.Fatalf("edge into a dropped node survived: %+v", es)
				}
				es, err = s.Edges(ctx, "n:a1", graph.In)
				must(t, err)
				if len(es) != 1 || es[0].From != "n:b1" {
					t.Fatalf("edge from an unchanged group into a kept node: %+v", es)
				}
				if es, _ := s.Edges(ctx, "n:a1", graph.Out); len(es) != 0 {
					t.Fatalf("the group's old edges survived: %+v", es)
				}
				n, _, _ := s.Node(ctx, "n:a1")
				if !reflect.DeepEqual(n.Props, map[string]any{"lang": "ts"}) {
					t.Fatalf("props not replaced: %v", n.Props)
				}
				hs, _ := s.Hashes(ctx)
				if hs["a"] != "h2" || hs["b"] != "h1" {
					t.Fatalf("hashes: %v", hs)
				}
			},
		},
		{
			note:  "removing a group drops its nodes, its edges and its hash",
			steps: []graph.Change{{Groups: []graph.Group{a, b}}, {Remove: []string{"b"}}},
			check: func(t *testing.T, s graph.Store) {
				if ns, _ := s.Nodes(ctx, "Component", "", 0); len(ns) != 0 {
					t.Fatalf("components left: %v", keys(ns))
				}
				if es, _ := s.Edges(ctx, "n:a1", graph.In); len(es) != 0 {
					t.Fatalf("edges left: %+v", es)
				}
				hs, _ := s.Hashes(ctx)
				if !reflect.DeepEqual(hs, map[string]string{"a": "h1"}) {
					t.Fatalf("hashes: %v", hs)
				}
			},
		},
		{
			note: "a change that produces one node twice fails whole and changes nothing",
			steps: []graph.Change{{Groups: []graph.Group{a}},
				{Groups: []graph.Group{group("a", "h9", nil, nil), group("c", "h1", []graph.Node{node("n:c", "File", "x", "c", nil)}, nil),
					group("e", "h1", []graph.Node{node("n:c", "File", "x", "e", nil)}, nil)}}},
			wantErr: true,
			check: func(t *testing.T, s graph.Store) {
				hs, _ := s.Hashes(ctx)
				if !reflect.DeepEqual(hs, map[string]string{"a": "h1"}) {
					t.Fatalf("hashes changed: %v", hs)
				}
				if _, ok, _ := s.Node(ctx, "n:a2"); !ok {
					t.Fatal("a failed change removed a node")
				}
			},
		},
		{
			note: "a change that fails half way (a property that cannot be stored) changes nothing",
			steps: []graph.Change{{Groups: []graph.Group{a}},
				{Groups: []graph.Group{group("a", "h9", nil, nil), group("c", "h1", []graph.Node{node("n:c", "File", "x", "c", map[string]any{"f": func() {}})}, nil)}}},
			wantErr: true,
			check: func(t *testing.T, s graph.Store) {
				hs, _ := s.Hashes(ctx)
				if !reflect.DeepEqual(hs, map[string]string{"a": "h1"}) {
					t.Fatalf("hashes changed: %v", hs)
				}
				if _, ok, _ := s.Node(ctx, "n:a2"); !ok {
					t.Fatal("a failed change removed a node")
				}
			},
		},
		{
			note:    "a label that is not an identifier is refused before anything is written",
			steps:   []graph.Change{{Groups: []graph.Group{group("d", "h1", []graph.Node{node("n:d", "X) DETACH DELETE (m", "x", "d", nil)}, nil)}}},
			wantErr: true,
			check: func(t *testing.T, s graph.Store) {
				if hs, _ := s.Hashes(ctx); len(hs) != 0 {
					t.Fatalf("hashes: %v", hs)
				}
			},
		},
	} {
		t.Run(tc.note, func(t *testing.T) {
			s := open(t)
			must(t, s.EnsureSchema(ctx))
			must(t, s.EnsureSchema(ctx)) // idempotent
			clear(t, s)
			for i, c := range tc.steps {
				err := s.Apply(ctx, c)
				if last := i == len(tc.steps)-1; last && tc.wantErr {
					if err == nil {
						t.Fatal("want an error")
					}
				} else {
					must(t, err)
				}
			}
			tc.check(t, s)
		})
	}
}

func clear(t *testing.T, s graph.Store) {
	hs, err := s.Hashes(context.Background())
	must(t, err)
	var rm []string
	for k := range hs {
		rm = append(rm, k)
	}
	must(t, s.Apply(context.Background(), graph.Change{Remove: rm}))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func node(id, label, key, source string, props map[string]any) graph.Node {
	return graph.Node{ID: id, Label: label, Key: key, Source: source, Props: props}
}

func edge(from, typ, to, source string, props map[string]any) graph.Edge {
	return graph.Edge{From: from, Type: typ, To: to, Source: source, Props: props}
}

func group(source, hash string, nodes []graph.Node, edges []graph.Edge) graph.Group {
	return graph.Group{Source: source, Hash: hash, Nodes: nodes, Edges: edges}
}

func keys(ns []graph.Node) []string {
	out := []string{}
	for _, n := range ns {
		out = append(out, n.Key)
	}
	return out
}
