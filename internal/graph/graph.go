// Package graph is mcpc's knowledge graph: day-0 facts about a workspace
// (domain anchors, files, symbol headers, component usages, design-system
// contracts), migration and intent seeds, and prose policies, joined so
// proof chains and inventories are walks rather than guesses.
//
// The graph lives behind Store, with two implementations that behave the
// same: the embedded one in the runtime SQLite database (the default,
// nothing to install) and Neo4j (internal/graph/neo4jstore) for a team that
// shares one graph across workspaces and machines. Facts are grouped by
// source (a file, a seed file, the anchor tree): a sync hashes each group and
// replaces only the groups whose hash changed, in one transaction.
package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
)

// Node is one fact. ID is stable across syncs (e.g. "file:src/app/a.ts"),
// Label its kind, Key the value it is looked up by (a tag, a path, a name),
// Source the group that owns it.
type Node struct {
	ID     string         `json:"id"`
	Label  string         `json:"label"`
	Key    string         `json:"key"`
	Source string         `json:"source"`
	Props  map[string]any `json:"props,omitempty"`
}

// Edge links two nodes. There is at most one edge of a type between two
// nodes. An edge belongs to the group of its From node: it is replaced when
// that group is, and vanishes with either end.
type Edge struct {
	From   string         `json:"from"`
	Type   string         `json:"type"`
	To     string         `json:"to"`
	Source string         `json:"source"`
	Props  map[string]any `json:"props,omitempty"`
}

// Group is the facts of one source and the hash they had when written.
type Group struct {
	Source string
	Hash   string
	Nodes  []Node
	Edges  []Edge
}

// Change replaces groups. Groups replaces (or adds) each listed group;
// Remove drops groups whose source is gone. Nodes of a replaced group that
// it no longer produces are deleted with their edges; nodes it still
// produces keep the edges other groups have into them.
type Change struct {
	Groups []Group
	Remove []string
}

// Direction selects edges of a node.
type Direction int

// Out follows edges from the node, In edges into it.
const (
	Out Direction = iota
	In
)

// Store is what sync, proof chains and inventory need of a graph backend.
// Implementations must behave the same (see the behaviour suite in
// storetest).
type Store interface {
	// EnsureSchema creates constraints and indexes; it is idempotent.
	EnsureSchema(ctx context.Context) error
	// Hashes returns each stored source with the hash of its facts.
	Hashes(ctx context.Context) (map[string]string, error)
	// Apply performs a Change in one transaction: all of it or nothing.
	Apply(ctx context.Context, c Change) error
	// Node returns one node; ok is false when there is none.
	Node(ctx context.Context, id string) (n Node, ok bool, err error)
	// Nodes returns the nodes of a label whose key starts with keyPrefix,
	// ordered by key then id; limit <= 0 means no limit.
	Nodes(ctx context.Context, label, keyPrefix string, limit int) ([]Node, error)
	// Edges returns the edges of a node in one direction, of the given
	// types (all types when empty), ordered by type, then the other end.
	Edges(ctx context.Context, id string, dir Direction, types ...string) ([]Edge, error)
	// Counts returns how many nodes each label has and how many edges each
	// type has.
	Counts(ctx context.Context) (nodes, edges map[string]int, err error)
	// Close releases the backend.
	Close() error
}

// Labels of the nodes a sync writes.
const (
	LabelDomainAnchor    = "DomainAnchor"
	LabelFile            = "File"
	LabelSymbol          = "SymbolDefinition"
	LabelUsage           = "UsageExample"
	LabelComponent       = "Component"
	LabelProp            = "Prop"
	LabelMigrationRule   = "MigrationRule"
	LabelUIIntent        = "UIIntent"
	LabelComponentIntent = "ComponentIntent"
	LabelMacroConstraint = "MacroConstraint"
	LabelProsePolicy     = "ProsePolicy"
)

// Labels lists every node label, for backends that create per-label
// constraints.
var Labels = []string{LabelDomainAnchor, LabelFile, LabelSymbol, LabelUsage, LabelComponent, LabelProp,
	LabelMigrationRule, LabelUIIntent, LabelComponentIntent, LabelMacroConstraint, LabelProsePolicy}

// Edge types.
const (
	EdgeContains   = "CONTAINS"    // anchor → sub-anchor
	EdgeInAnchor   = "IN_ANCHOR"   // file or usage → its domain anchor
	EdgeDefines    = "DEFINES"     // file → symbol
	EdgeHasUsage   = "HAS_USAGE"   // file → usage
	EdgeInstanceOf = "INSTANCE_OF" // usage → component
	EdgeHasProp    = "HAS_PROP"    // component → prop
	EdgeMigrates   = "MIGRATES"    // migration rule → from component
	EdgeMigratesTo = "MIGRATES_TO" // migration rule → to component
	EdgeConcerns   = "CONCERNS"    // component intent / constraint → component
	EdgeMentions   = "MENTIONS"    // prose policy → component
	EdgeDeclaredIn = "DECLARED_IN" // component → components.d.ts file
)

// fileEdgeTypes maps the index's file edge kinds to edge types.
var fileEdgeTypes = map[string]string{
	"import":      "IMPORTS",
	"reference":   "REFERENCES",
	"template":    "USES_TEMPLATE",
	"route":       "ROUTES_TO",
	"declaration": "DECLARES",
	"renderer":    "RENDERS",
	"federation":  "EXPOSES",
	"style":       "STYLED_BY",
}

// EdgeTypes lists every edge type.
var EdgeTypes = func() []string {
	out := []string{EdgeContains, EdgeInAnchor, EdgeDefines, EdgeHasUsage, EdgeInstanceOf, EdgeHasProp,
		EdgeMigrates, EdgeMigratesTo, EdgeConcerns, EdgeMentions, EdgeDeclaredIn}
	for _, k := range []string{"import", "reference", "template", "route", "declaration", "renderer", "federation", "style"} {
		out = append(out, fileEdgeTypes[k])
	}
	return out
}()

// identifier is what a label or edge type must look like: backends that
// cannot take them as parameters (Cypher) write them into the query text.
var identifier = regexp.MustCompile(`^[A-Z][A-Za-z0-9_]{0,63}$`)

// CheckName rejects labels and edge types that are not plain identifiers.
func CheckName(name string) error {
	if !identifier.MatchString(name) {
		return fmt.Errorf("graph: %q is not a valid label or edge type", name)
	}
	return nil
}

// Validate checks a change before a backend writes it: names, and that no
// node id appears twice.
func (c Change) Validate() error {
	seen := map[string]string{}
	for _, g := range c.Groups {
		for _, n := range g.Nodes {
			if n.ID == "" {
				return fmt.Errorf("graph: node without id in %s", g.Source)
			}
			if err := CheckName(n.Label); err != nil {
				return err
			}
			if n.Source != g.Source {
				return fmt.Errorf("graph: node %s has source %q in group %q", n.ID, n.Source, g.Source)
			}
			if prev, dup := seen[n.ID]; dup {
				return fmt.Errorf("graph: node %s produced by both %s and %s", n.ID, prev, g.Source)
			}
			seen[n.ID] = g.Source
		}
		for _, e := range g.Edges {
			if err := CheckName(e.Type); err != nil {
				return err
			}
			if e.Source != g.Source {
				return fmt.Errorf("graph: edge %s-%s->%s has source %q in group %q", e.From, e.Type, e.To, e.Source, g.Source)
			}
		}
	}
	return nil
}

// encodeProps is the stored form of properties: JSON, "{}" when empty.
func encodeProps(p map[string]any) (string, error) {
	if len(p) == 0 {
		return "{}", nil
	}
	b, err := json.Marshal(p)
	return string(b), err
}

// EncodeProps is encodeProps for other backends.
func EncodeProps(p map[string]any) (string, error) { return encodeProps(p) }

// DecodeProps reads stored properties; "{}" and "" give nil.
func DecodeProps(s string) (map[string]any, error) {
	if s == "" || s == "{}" {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return nil, err
	}
	return m, nil
}
