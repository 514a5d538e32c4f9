package graph

import (
	"context"
	"strings"
)

// Grounding says whether a prose policy is grounded (seed 000 §10.2): a
// UsageExample of a component it mentions exists in its scope. Grounded
// policies may deny plans; ungrounded ones are advisory.
type Grounding struct {
	Policy   string           `json:"policy"`
	Strength string           `json:"strength"`
	Scopes   []string         `json:"scopes"` // "" is the whole repository
	Grounded bool             `json:"grounded"`
	Examples []InventoryUsage `json:"examples"` // the usages that ground it, at most maxGroundingExamples
	Mentions []string         `json:"mentions"` // the component tags it names
}

const maxGroundingExamples = 5

// Ground computes the grounding of one ProsePolicy node from the graph:
// policy -MENTIONS-> component <-INSTANCE_OF- usage, usage anchor within a
// scope of the policy.
func Ground(ctx context.Context, s Store, policyID string) (*Grounding, error) {
	p, ok, err := s.Node(ctx, policyID)
	if err != nil || !ok {
		return nil, err
	}
	g := &Grounding{Policy: policyID, Strength: str(p.Props["strength"]), Scopes: strings.Split(str(p.Props["scopes"]), ","), Examples: []InventoryUsage{}, Mentions: []string{}}
	mentions, err := s.Edges(ctx, policyID, Out, EdgeMentions)
	if err != nil {
		return nil, err
	}
	for _, m := range mentions {
		g.Mentions = append(g.Mentions, strings.TrimPrefix(m.To, "component:"))
		uses, err := s.Edges(ctx, m.To, In, EdgeInstanceOf)
		if err != nil {
			return nil, err
		}
		for _, u := range uses {
			n, ok, err := s.Node(ctx, u.From)
			if err != nil {
				return nil, err
			}
			if !ok || !inScopes(str(n.Props["anchor"]), g.Scopes) {
				continue
			}
			g.Grounded = true
			if len(g.Examples) < maxGroundingExamples {
				g.Examples = append(g.Examples, InventoryUsage{File: str(n.Props["file"]), Line: intProp(n.Props["startLine"]),
					EndLine: intProp(n.Props["endLine"]), Anchor: str(n.Props["anchor"]), Attrs: str(n.Props["attrs"])})
			}
		}
	}
	return g, nil
}

func inScopes(anchor string, scopes []string) bool {
	for _, sc := range scopes {
		if sc == "" || anchor == sc || strings.HasPrefix(anchor, sc+"/") {
			return true
		}
	}
	return false
}
