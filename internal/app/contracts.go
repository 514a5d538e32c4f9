package app

import (
	"context"

	"github.com/mcpc/mcpc/internal/controller"
	"github.com/mcpc/mcpc/internal/graph"
	"github.com/mcpc/mcpc/internal/patch"
)

// graphContracts implements controller.ComponentContracts on the graph the
// proof chains walk. It only reads: the embedded graph is synced at
// initialize_work (Walk), never during a write's turn.
type graphContracts struct{ store graph.Store }

// contractsOf is the contract reader of the graph serve opened; nil
// without a graph.
func contractsOf(pc controller.ProofChains) controller.ComponentContracts {
	if p, ok := pc.(*proofChains); ok {
		return graphContracts{store: p.store}
	}
	return nil
}

func (g graphContracts) Contracts(ctx context.Context, tags []string) (map[string]controller.ComponentContract, error) {
	out := map[string]controller.ComponentContract{}
	for _, tag := range tags { // the controller bounds them
		n, ok, err := g.store.Node(ctx, graph.ComponentID(tag))
		if err != nil {
			return nil, err
		}
		// A component only used somewhere (declared false) has no contract.
		if declared, _ := n.Props["declared"].(bool); !ok || !declared {
			continue
		}
		edges, err := g.store.Edges(ctx, n.ID, graph.Out, graph.EdgeHasProp)
		if err != nil {
			return nil, err
		}
		cc := controller.ComponentContract{Props: []graph.ContractProp{}, Events: graph.ComponentEvents(n)}
		for _, e := range edges {
			p, ok, err := g.store.Node(ctx, e.To)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			name, _ := p.Props["name"].(string)
			typ, _ := p.Props["type"].(string)
			req, _ := p.Props["required"].(bool)
			cc.Props = append(cc.Props, graph.ContractProp{Name: name, Type: typ, Required: req})
		}
		out[tag] = cc
	}
	return out, nil
}

// MigrationRule is fromTag's approved MigrationRule: a candidate or
// deprecated rule never supplies a codemod's mappings.
func (g graphContracts) MigrationRule(ctx context.Context, fromTag string) (patch.MigrationRule, bool, error) {
	rules, err := g.store.Nodes(ctx, graph.LabelMigrationRule, fromTag, 0)
	if err != nil {
		return patch.MigrationRule{}, false, err
	}
	for _, r := range rules {
		if r.Key != fromTag || r.Props["status"] != "approved" {
			continue
		}
		rule := patch.MigrationRule{FromTag: fromTag, PropMappings: map[string]string{}}
		rule.ToTag, _ = r.Props["toTag"].(string)
		m, _ := r.Props["propMappings"].(map[string]any)
		for k, v := range m {
			if s, ok := v.(string); ok {
				rule.PropMappings[k] = s
			}
		}
		return rule, true, nil
	}
	return patch.MigrationRule{}, false, nil
}
