// Package neo4jstore is the graph.Store of a team: one Neo4j 5 database
// that several workspaces and machines sync into and read from, through the
// official Bolt driver.
//
// Every node carries the label GraphNode (unique id, indexed source) and its
// own label (unique id, indexed key). Labels and relationship types cannot be
// query parameters in Cypher, so they are checked against graph.CheckName
// before they are written into a query; every value is a parameter. Writes
// are batched with UNWIND, one query per label or type and batch; an Apply
// is one transaction, a sync's ApplyBatched several bounded ones.
package neo4jstore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/mcpc/mcpc/internal/graph"
)

// Options say where the database is.
type Options struct {
	URI      string // neo4j://host:7687, bolt://..., neo4j+s://...
	User     string
	Password string
	Database string // empty: the server's default database
}

// Store is a graph.Store on Neo4j.
type Store struct {
	driver neo4j.DriverWithContext
	db     string
}

// batchRows bounds the rows of one UNWIND, so one query's parameters stay
// a few megabytes.
const batchRows = 2000

// Open connects and checks the server answers.
func Open(ctx context.Context, o Options) (*Store, error) {
	if o.URI == "" {
		return nil, errors.New("neo4j: no URI configured (graph.neo4j.uri or MCPC_NEO4J_URI)")
	}
	d, err := neo4j.NewDriverWithContext(o.URI, neo4j.BasicAuth(o.User, o.Password, ""))
	if err != nil {
		return nil, fmt.Errorf("neo4j: %w", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := d.VerifyConnectivity(cctx); err != nil {
		d.Close(ctx)
		return nil, fmt.Errorf("neo4j %s: %w", o.URI, err)
	}
	return &Store{driver: d, db: o.Database}, nil
}

// Close closes the driver.
func (s *Store) Close() error { return s.driver.Close(context.Background()) }

func (s *Store) session(ctx context.Context, mode neo4j.AccessMode) neo4j.SessionWithContext {
	return s.driver.NewSession(ctx, neo4j.SessionConfig{AccessMode: mode, DatabaseName: s.db})
}

// schemaStatements are the constraints and indexes, each idempotent
// (IF NOT EXISTS, Neo4j 5 syntax).
func schemaStatements() []string {
	out := []string{
		"CREATE CONSTRAINT graph_node_id IF NOT EXISTS FOR (n:GraphNode) REQUIRE n.id IS UNIQUE",
		"CREATE INDEX graph_node_source IF NOT EXISTS FOR (n:GraphNode) ON (n.source)",
		"CREATE CONSTRAINT graph_source_id IF NOT EXISTS FOR (s:GraphSource) REQUIRE s.id IS UNIQUE",
	}
	for _, l := range graph.Labels {
		low := strings.ToLower(l)
		out = append(out,
			fmt.Sprintf("CREATE CONSTRAINT graph_%s_id IF NOT EXISTS FOR (n:%s) REQUIRE n.id IS UNIQUE", low, l),
			fmt.Sprintf("CREATE INDEX graph_%s_key IF NOT EXISTS FOR (n:%s) ON (n.key)", low, l))
	}
	for _, t := range graph.EdgeTypes {
		out = append(out, fmt.Sprintf("CREATE INDEX graph_rel_%s_source IF NOT EXISTS FOR ()-[r:%s]-() ON (r.source)", strings.ToLower(t), t))
	}
	return out
}

// EnsureSchema creates the constraints and indexes. Schema statements run
// in auto-commit transactions: Neo4j does not mix them with data writes.
func (s *Store) EnsureSchema(ctx context.Context) error {
	sess := s.session(ctx, neo4j.AccessModeWrite)
	defer sess.Close(ctx)
	for _, q := range schemaStatements() {
		res, err := sess.Run(ctx, q, nil)
		if err == nil {
			_, err = res.Consume(ctx)
		}
		if err != nil {
			return fmt.Errorf("neo4j: %s: %w", q, err)
		}
	}
	return nil
}

// The read statements. Labels cannot be parameters, so nodesQuery takes
// one already checked by graph.CheckName.
const (
	hashesQuery     = "MATCH (g:GraphSource) RETURN g.id AS id, g.hash AS hash"
	nodeQuery       = "MATCH (n:GraphNode {id: $id}) RETURN n.id AS id, n.label AS label, n.key AS key, n.source AS source, n.props AS props"
	edgesOutQuery   = "MATCH (a:GraphNode {id: $id})-[r]->(b:GraphNode) WHERE size($types) = 0 OR type(r) IN $types RETURN a.id AS src, type(r) AS rtype, b.id AS dst, r.source AS source, r.props AS props ORDER BY rtype, dst"
	edgesInQuery    = "MATCH (a:GraphNode)-[r]->(b:GraphNode {id: $id}) WHERE size($types) = 0 OR type(r) IN $types RETURN a.id AS src, type(r) AS rtype, b.id AS dst, r.source AS source, r.props AS props ORDER BY rtype, src"
	countNodesQuery = "MATCH (n:GraphNode) RETURN n.label AS k, count(*) AS c"
	countEdgesQuery = "MATCH (:GraphNode)-[r]->(:GraphNode) RETURN type(r) AS k, count(*) AS c"
)

func nodesQuery(label string, limited bool) string {
	q := fmt.Sprintf("MATCH (n:%s) WHERE n:GraphNode AND n.key STARTS WITH $prefix RETURN n.id AS id, n.label AS label, n.key AS key, n.source AS source, n.props AS props ORDER BY n.key, n.id", label)
	if limited {
		q += " LIMIT $limit"
	}
	return q
}

// Hashes returns the stored sources.
func (s *Store) Hashes(ctx context.Context) (map[string]string, error) {
	recs, err := s.read(ctx, hashesQuery, nil)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(recs))
	for _, r := range recs {
		out[str(r, "id")] = str(r, "hash")
	}
	return out, nil
}

func (s *Store) read(ctx context.Context, q string, params map[string]any) ([]*neo4j.Record, error) {
	sess := s.session(ctx, neo4j.AccessModeRead)
	defer sess.Close(ctx)
	v, err := sess.ExecuteRead(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, q, params)
		if err != nil {
			return nil, err
		}
		return res.Collect(ctx)
	})
	if err != nil {
		return nil, fmt.Errorf("neo4j: %w", err)
	}
	return v.([]*neo4j.Record), nil
}

func str(r *neo4j.Record, key string) string {
	v, _ := r.Get(key)
	s, _ := v.(string)
	return s
}

// reserved are the stored properties a node's own scalar properties may
// not overwrite.
var reserved = map[string]bool{"id": true, "label": true, "key": true, "source": true, "props": true, "gen": true}

// nodeRow is the parameter map of one node: the fixed properties, the
// properties as JSON (what reads return, so both backends answer alike),
// and scalar properties copied flat so a team can query n.tag in Cypher.
func nodeRow(n graph.Node, gen int64) (map[string]any, error) {
	props, err := graph.EncodeProps(n.Props)
	if err != nil {
		return nil, fmt.Errorf("node %s: %w", n.ID, err)
	}
	p := map[string]any{"id": n.ID, "label": n.Label, "key": n.Key, "source": n.Source, "props": props, "gen": gen}
	for k, v := range n.Props {
		if reserved[k] {
			continue
		}
		switch v.(type) {
		case string, bool, int, int64, float64:
			p[k] = v
		}
	}
	return map[string]any{"id": n.ID, "p": p}, nil
}

// Apply performs a change in one write transaction. The driver retries the
// whole function on transient errors; every statement in it is idempotent.
func (s *Store) Apply(ctx context.Context, c graph.Change) error {
	return s.ApplyBatched(ctx, c, math.MaxInt)
}

// ApplyBatched implements graph.BatchStore: it writes c in write
// transactions of about maxRows rows each (graph.DefaultBatchRows when not
// positive), so a cold sync of a large repository does not make the server
// hold one transaction of every node and relationship. Every row is encoded
// before the first transaction. The statements keep applySteps' order, in
// which a source's hash is written after all its nodes and edges: a sync
// cut off between two transactions leaves the changed sources with their
// old hash and the removed ones still listed, so the next sync writes them
// again. Readers may see a partly written change while it runs.
func (s *Store) ApplyBatched(ctx context.Context, c graph.Change, maxRows int) error {
	if maxRows <= 0 {
		maxRows = graph.DefaultBatchRows
	}
	if err := c.Validate(); err != nil {
		return err
	}
	steps, err := applySteps(c, time.Now().UnixNano())
	if err != nil {
		return err
	}
	sess := s.session(ctx, neo4j.AccessModeWrite)
	defer sess.Close(ctx)
	for _, batch := range transactions(steps, maxRows) {
		_, err = sess.ExecuteWrite(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
			for _, st := range batch {
				res, err := tx.Run(ctx, st.query, st.params)
				if err != nil {
					return nil, err
				}
				if _, err := res.Consume(ctx); err != nil {
					return nil, err
				}
			}
			return nil, nil
		})
		if err != nil {
			return fmt.Errorf("neo4j: apply: %w", err)
		}
	}
	return nil
}

// transactions cuts steps, in order, into runs of at most maxRows rows (a
// step of more rows is a transaction of its own).
func transactions(steps []step, maxRows int) [][]step {
	var out [][]step
	for start := 0; start < len(steps); {
		end, rows := start, 0
		for end < len(steps) && (end == start || rows+steps[end].rows <= maxRows) {
			rows += steps[end].rows
			end++
		}
		out = append(out, steps[start:end])
		start = end
	}
	return out
}

// applySteps are the statements of one Apply, in order: it is separate so
// the tests can check every statement mcpc writes with (cypherlint_test.go).
func applySteps(c graph.Change, gen int64) ([]step, error) {
	var replaced []string
	nodesByLabel := map[string][]map[string]any{}
	edgesByType := map[string][]map[string]any{}
	var sources []map[string]any
	for _, g := range c.Groups {
		replaced = append(replaced, g.Source)
		for _, n := range g.Nodes {
			row, err := nodeRow(n, gen)
			if err != nil {
				return nil, err
			}
			nodesByLabel[n.Label] = append(nodesByLabel[n.Label], row)
		}
		for _, e := range g.Edges {
			props, err := graph.EncodeProps(e.Props)
			if err != nil {
				return nil, err
			}
			edgesByType[e.Type] = append(edgesByType[e.Type], map[string]any{"from": e.From, "to": e.To, "source": e.Source, "props": props})
		}
		sources = append(sources, map[string]any{"id": g.Source, "hash": g.Hash})
	}
	swept := append(append([]string(nil), replaced...), c.Remove...)
	var steps []step
	// Edges owned by replaced or removed groups go first, per type so the
	// relationship source indexes apply, batchRows sources at a time.
	for _, t := range graph.EdgeTypes {
		steps = appendSourceBatches(steps, fmt.Sprintf("MATCH ()-[r:%s]->() WHERE r.source IN $sources DELETE r", t), swept, nil)
	}
	for _, label := range sortedKeys(nodesByLabel) {
		q := fmt.Sprintf("UNWIND $rows AS row MERGE (n:GraphNode {id: row.id}) SET n = row.p SET n:%s", label)
		steps = appendBatches(steps, q, nodesByLabel[label], nil)
	}
	steps = appendSourceBatches(steps, "UNWIND $sources AS s MATCH (n:GraphNode {source: s}) WHERE n.gen <> $gen DETACH DELETE n", swept, map[string]any{"gen": gen})
	steps = appendSourceBatches(steps, "UNWIND $sources AS s MATCH (g:GraphSource {id: s}) DELETE g", c.Remove, nil)
	for _, t := range sortedKeys(edgesByType) {
		if !knownType(t) {
			// Types outside EdgeTypes have no source index; delete theirs
			// by a scan (rare: only callers outside the sync write them).
			steps = appendSourceBatches(steps, fmt.Sprintf("MATCH ()-[r:%s]->() WHERE r.source IN $sources DELETE r", t), swept, nil)
		}
		q := fmt.Sprintf("UNWIND $rows AS row MATCH (a:GraphNode {id: row.from}) MATCH (b:GraphNode {id: row.to}) MERGE (a)-[r:%s]->(b) SET r.source = row.source, r.props = row.props", t)
		steps = appendBatches(steps, q, edgesByType[t], nil)
	}
	return appendBatches(steps, "UNWIND $rows AS row MERGE (g:GraphSource {id: row.id}) SET g.hash = row.hash", sources, nil), nil
}

// step is one statement with its parameters and the rows it writes or
// deletes by (what bounds a transaction).
type step struct {
	query  string
	params map[string]any
	rows   int
}

func appendBatches(steps []step, q string, rows []map[string]any, extra map[string]any) []step {
	for len(rows) > 0 {
		n := min(len(rows), batchRows)
		p := map[string]any{"rows": toAny(rows[:n])}
		for k, v := range extra {
			p[k] = v
		}
		steps = append(steps, step{q, p, n})
		rows = rows[n:]
	}
	return steps
}

// appendSourceBatches adds q once per batchRows sources (bound to
// $sources, with extra), and once with none when there are none, so the
// statements of a change do not depend on its size.
func appendSourceBatches(steps []step, q string, sources []string, extra map[string]any) []step {
	for first := true; first || len(sources) > 0; first = false {
		n := min(len(sources), batchRows)
		p := map[string]any{"sources": append([]string{}, sources[:n]...)}
		for k, v := range extra {
			p[k] = v
		}
		steps = append(steps, step{q, p, max(n, 1)})
		sources = sources[n:]
	}
	return steps
}

func toAny(rows []map[string]any) []any {
	out := make([]any, len(rows))
	for i, r := range rows {
		out[i] = r
	}
	return out
}

func knownType(t string) bool {
	for _, k := range graph.EdgeTypes {
		if k == t {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Node returns one node.
func (s *Store) Node(ctx context.Context, id string) (graph.Node, bool, error) {
	recs, err := s.read(ctx, nodeQuery, map[string]any{"id": id})
	if err != nil || len(recs) == 0 {
		return graph.Node{}, false, err
	}
	n, err := toNode(recs[0])
	return n, err == nil, err
}

func toNode(r *neo4j.Record) (graph.Node, error) {
	props, err := graph.DecodeProps(str(r, "props"))
	return graph.Node{ID: str(r, "id"), Label: str(r, "label"), Key: str(r, "key"), Source: str(r, "source"), Props: props}, err
}

// Nodes returns a label's nodes by key prefix.
func (s *Store) Nodes(ctx context.Context, label, keyPrefix string, limit int) ([]graph.Node, error) {
	if err := graph.CheckName(label); err != nil {
		return nil, err
	}
	q := nodesQuery(label, limit > 0)
	params := map[string]any{"prefix": keyPrefix}
	if limit > 0 {
		params["limit"] = int64(limit)
	}
	recs, err := s.read(ctx, q, params)
	if err != nil {
		return nil, err
	}
	out := make([]graph.Node, 0, len(recs))
	for _, r := range recs {
		n, err := toNode(r)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// Edges returns a node's edges in one direction.
func (s *Store) Edges(ctx context.Context, id string, dir graph.Direction, types ...string) ([]graph.Edge, error) {
	q := edgesOutQuery
	if dir == graph.In {
		q = edgesInQuery
	}
	if types == nil {
		types = []string{}
	}
	recs, err := s.read(ctx, q, map[string]any{"id": id, "types": types})
	if err != nil {
		return nil, err
	}
	out := make([]graph.Edge, 0, len(recs))
	for _, r := range recs {
		props, err := graph.DecodeProps(str(r, "props"))
		if err != nil {
			return nil, err
		}
		out = append(out, graph.Edge{From: str(r, "src"), Type: str(r, "rtype"), To: str(r, "dst"), Source: str(r, "source"), Props: props})
	}
	return out, nil
}

// Counts returns nodes per label and edges per type.
func (s *Store) Counts(ctx context.Context) (map[string]int, map[string]int, error) {
	count := func(q string) (map[string]int, error) {
		recs, err := s.read(ctx, q, nil)
		if err != nil {
			return nil, err
		}
		out := map[string]int{}
		for _, r := range recs {
			v, _ := r.Get("c")
			n, _ := v.(int64)
			out[str(r, "k")] = int(n)
		}
		return out, nil
	}
	nodes, err := count(countNodesQuery)
	if err != nil {
		return nil, nil, err
	}
	edges, err := count(countEdgesQuery)
	return nodes, edges, err
}

var (
	_ graph.Store      = (*Store)(nil)
	_ graph.BatchStore = (*Store)(nil)
)
