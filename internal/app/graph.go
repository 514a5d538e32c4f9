package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/graph"
	"github.com/mcpc/mcpc/internal/graph/neo4jstore"
	"github.com/mcpc/mcpc/internal/indexer"
	"github.com/mcpc/mcpc/internal/store"
)

// Graph is an opened knowledge graph with the code index it is built from.
type Graph struct {
	Root    string
	Backend string
	Store   graph.Store
	Index   *indexer.Index
	Options graph.Options
	runtime *store.Store
}

// Close releases the graph backend and the runtime store.
func (g *Graph) Close() error {
	err := g.Store.Close()
	if cerr := g.runtime.Close(); err == nil {
		err = cerr
	}
	return err
}

// OpenGraph opens the code index of the workspace at dir and the graph
// backend its configuration names (graph.backend; MCPC_GRAPH_BACKEND
// overrides).
func OpenGraph(ctx context.Context, dir string) (*Graph, error) {
	ws, cfg, err := workspace(dir)
	if err != nil {
		return nil, err
	}
	st, ix, err := openIndex(ws, cfg, indexReading)
	if err != nil {
		return nil, err
	}
	g := &Graph{Root: ws, Index: ix, runtime: st, Options: builderOptions(ws, cfg)}
	if g.Store, g.Backend, err = openGraphStore(ctx, ws, cfg, st); err != nil {
		st.Close()
		return nil, err
	}
	return g, nil
}

// openGraphStore opens the backend the configuration names (graph.backend;
// MCPC_GRAPH_BACKEND overrides).
func openGraphStore(ctx context.Context, ws string, cfg *config.Config, st *store.Store) (graph.Store, string, error) {
	backend := cfg.Graph.Backend
	if b := os.Getenv("MCPC_GRAPH_BACKEND"); b != "" {
		backend = b
	}
	switch backend {
	case "embedded":
		return graph.OpenEmbedded(st.DB()), backend, nil
	case "neo4j":
		opts, err := neo4jOptions(ws, cfg)
		if err != nil {
			return nil, backend, err
		}
		s, err := neo4jstore.Open(ctx, opts)
		return s, backend, err
	default:
		return nil, backend, fmt.Errorf("graph: unknown backend %q (embedded or neo4j)", backend)
	}
}

// GraphOptions are the fact options of a configuration.
func GraphOptions(cfg *config.Config) graph.Options {
	return graph.Options{AnchorDepth: cfg.Graph.Anchors.MaxDepth, AnchorExclude: cfg.Graph.Anchors.Exclude,
		Contracts: cfg.Graph.Contracts, Prose: cfg.Graph.Prose}
}

// builderOptions are GraphOptions with the workspace's memo file, which
// spares a new process building the groups of files that did not change.
func builderOptions(ws string, cfg *config.Config) graph.Options {
	o := GraphOptions(cfg)
	o.MemoFile = filepath.Join(ws, filepath.FromSlash(GraphMemoPath))
	return o
}

// neo4jOptions reads the connection from config, overridden by
// MCPC_NEO4J_URI, MCPC_NEO4J_USER and MCPC_NEO4J_PASSWORD. The password
// comes from a file or the environment, never from config itself.
func neo4jOptions(ws string, cfg *config.Config) (neo4jstore.Options, error) {
	n := cfg.Graph.Neo4j
	o := neo4jstore.Options{URI: n.URI, User: n.User, Database: n.Database}
	if v := os.Getenv("MCPC_NEO4J_URI"); v != "" {
		o.URI = v
	}
	if v := os.Getenv("MCPC_NEO4J_USER"); v != "" {
		o.User = v
	}
	if v, ok := os.LookupEnv("MCPC_NEO4J_PASSWORD"); ok {
		o.Password = v
	} else if n.PasswordFile != "" {
		p := n.PasswordFile
		if !filepath.IsAbs(p) {
			p = filepath.Join(ws, filepath.FromSlash(p))
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return o, fmt.Errorf("graph.neo4j.passwordFile: %w", err)
		}
		o.Password = strings.TrimSpace(string(raw))
	}
	return o, nil
}
