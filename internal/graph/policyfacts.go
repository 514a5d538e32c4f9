package graph

import (
	"context"
	"sort"
	"strings"
)

// PolicyFacts are the graph facts plan rules need about a set of files
// (seed 000 §10-11): the migration rules of the tags they use, the
// contracts of those tags and their migration targets, the macro
// constraints they trigger, and the prose policies in scope with their
// grounding. Go gathers them; rules decide what they imply.
type PolicyFacts struct {
	MigrationRules   []map[string]any `json:"migrationRules"`
	Components       []ComponentFacts `json:"components"`
	MacroConstraints []map[string]any `json:"macroConstraints"`
	ProsePolicies    []ProseFacts     `json:"prosePolicies"`
	// FileTags maps each gathered file to the custom element tags its
	// templates use, so rules can tell which file a rule applies to.
	FileTags map[string][]string `json:"fileTags"`
}

// ComponentFacts is a component's contract as policy sees it.
type ComponentFacts struct {
	Tag      string         `json:"tag"`
	Declared bool           `json:"declared"`
	Props    []ContractProp `json:"props"`
	Events   []string       `json:"events"`
}

// ComponentEvents are the events a component node declares (a contract's
// Events, stored joined by commas).
func ComponentEvents(n Node) []string {
	s, _ := n.Props["events"].(string)
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ",")
}

// ProseFacts is a prose policy with its grounding.
type ProseFacts struct {
	ID       string           `json:"id"`
	File     string           `json:"file"`
	Line     int              `json:"line"`
	Text     string           `json:"text"`
	Strength string           `json:"strength"`
	Scopes   []string         `json:"scopes"`
	Grounded bool             `json:"grounded"`
	Examples []InventoryUsage `json:"examples"`
	// Mentions are the components the policy names.
	Mentions []string `json:"mentions"`
}

// maxPolicyFiles and maxProsePolicies bound what one gathering reads.
const (
	maxPolicyFiles   = 200
	maxProsePolicies = 100
)

// GatherPolicyFacts collects the facts for files (workspace-relative, e.g.
// a pack's files or a plan's targets).
func GatherPolicyFacts(ctx context.Context, s Store, files []string) (*PolicyFacts, error) {
	out := &PolicyFacts{MigrationRules: []map[string]any{}, Components: []ComponentFacts{}, MacroConstraints: []map[string]any{}, ProsePolicies: []ProseFacts{}, FileTags: map[string][]string{}}
	tags := map[string]bool{}
	anchors := map[string]bool{}
	for _, f := range files[:min(len(files), maxPolicyFiles)] {
		n, ok, err := s.Node(ctx, FileID(f))
		if err != nil {
			return nil, err
		}
		if ok {
			anchors[str(n.Props["anchor"])] = true
		}
		us, err := s.Edges(ctx, FileID(f), Out, EdgeHasUsage)
		if err != nil {
			return nil, err
		}
		fileTags := map[string]bool{}
		for _, u := range us {
			// usage ids end with ":<tag>"
			tag := u.To[strings.LastIndexByte(u.To, ':')+1:]
			tags[tag] = true
			fileTags[tag] = true
		}
		if len(fileTags) > 0 {
			out.FileTags[f] = sortedSet(fileTags)
		}
	}
	want := map[string]bool{}
	for _, tag := range sortedSet(tags) {
		want[tag] = true
		rules, err := s.Nodes(ctx, LabelMigrationRule, tag, 0)
		if err != nil {
			return nil, err
		}
		for _, r := range rules {
			if r.Key != tag {
				continue
			}
			out.MigrationRules = append(out.MigrationRules, r.Props)
			if to := str(r.Props["toTag"]); to != "" {
				want[to] = true
			}
		}
		mcs, err := s.Nodes(ctx, LabelMacroConstraint, tag, 0)
		if err != nil {
			return nil, err
		}
		for _, m := range mcs {
			if m.Key == tag {
				out.MacroConstraints = append(out.MacroConstraints, m.Props)
			}
		}
	}
	for _, tag := range sortedSet(want) {
		c, ok, err := s.Node(ctx, ComponentID(tag))
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		cf := ComponentFacts{Tag: tag, Props: []ContractProp{}, Events: ComponentEvents(c)}
		cf.Declared, _ = c.Props["declared"].(bool)
		props, err := s.Edges(ctx, c.ID, Out, EdgeHasProp)
		if err != nil {
			return nil, err
		}
		for _, e := range props {
			p, ok, err := s.Node(ctx, e.To)
			if err != nil {
				return nil, err
			}
			if ok {
				req, _ := p.Props["required"].(bool)
				cf.Props = append(cf.Props, ContractProp{Name: str(p.Props["name"]), Type: str(p.Props["type"]), Required: req})
			}
		}
		out.Components = append(out.Components, cf)
	}
	prose, err := s.Nodes(ctx, LabelProsePolicy, "", 0)
	if err != nil {
		return nil, err
	}
	for _, p := range prose {
		if len(out.ProsePolicies) == maxProsePolicies {
			break
		}
		scopes := strings.Split(str(p.Props["scopes"]), ",")
		inScope := false
		for a := range anchors {
			if inScopes(a, scopes) {
				inScope = true
			}
		}
		if !inScope && len(files) > 0 {
			continue
		}
		g, err := Ground(ctx, s, p.ID)
		if err != nil {
			return nil, err
		}
		out.ProsePolicies = append(out.ProsePolicies, ProseFacts{ID: p.ID, File: str(p.Props["file"]), Line: intProp(p.Props["line"]),
			Text: str(p.Props["text"]), Strength: str(p.Props["strength"]), Scopes: scopes, Grounded: g.Grounded, Examples: g.Examples, Mentions: g.Mentions})
	}
	return out, nil
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// maxNamedTags bounds the tags one GatherMacroConstraints call looks up: the
// tags come from an agent's plan text.
const maxNamedTags = 64

// GatherMacroConstraints returns the MacroConstraints whose ifContains is one
// of tags (at most maxNamedTags of them, in the order given): the constraints
// a plan triggers by the tags its change nodes name, which the files it
// targets may not use yet (a page that gains both a constraint's tag and a
// tag the constraint forbids).
func GatherMacroConstraints(ctx context.Context, s Store, tags []string) ([]map[string]any, error) {
	out := []map[string]any{}
	for _, tag := range tags[:min(len(tags), maxNamedTags)] {
		mcs, err := s.Nodes(ctx, LabelMacroConstraint, tag, 0)
		if err != nil {
			return nil, err
		}
		for _, m := range mcs {
			if m.Key == tag {
				out = append(out, m.Props)
			}
		}
	}
	return out, nil
}
