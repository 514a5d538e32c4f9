package app

import (
	"context"
	"time"

	"github.com/mcpc/mcpc/internal/clock"
	"github.com/mcpc/mcpc/internal/graph"
)

// PolicyFacts implements controller.DomainFacts on the graph the proof
// chains walk. It only reads: the embedded graph is synced at
// initialize_work before the turn's transaction (Walk), never inside it.
func (p *proofChains) PolicyFacts(ctx context.Context, files []string) (*graph.PolicyFacts, error) {
	return graph.GatherPolicyFacts(ctx, p.store, files)
}

// NowEnv names the variable that sets the clock every window reads
// (memory expiry, reservations, gates): RFC 3339, for tests and replays.
const NowEnv = clock.EnvVar

// clockFromEnv is internal/clock's one clock, the one the CLI reads too.
func clockFromEnv() (func() time.Time, error) { return clock.FromEnv() }

// MacroConstraints implements controller.MacroConstraintFacts: the graph's
// MacroConstraints triggered by tags a plan names.
func (p *proofChains) MacroConstraints(ctx context.Context, tags []string) ([]map[string]any, error) {
	return graph.GatherMacroConstraints(ctx, p.store, tags)
}
