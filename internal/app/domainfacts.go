package app

import (
	"context"
	"fmt"
	"os"
	"time"

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
const NowEnv = "MCPC_NOW"

// clockFromEnv is the clock MCPC_NOW fixes, or the system clock.
func clockFromEnv() (func() time.Time, error) {
	s := os.Getenv(NowEnv)
	if s == "" {
		return time.Now, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", NowEnv, err)
	}
	return func() time.Time { return t }, nil
}
