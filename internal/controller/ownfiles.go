package controller

import (
	"path"

	"github.com/mcpc/mcpc/internal/pathscope"
)

// mcpc's own files (its configuration, seed knowledge, memory, state and
// client wiring) are listed in policies/data/protected.json and kept out of
// an agent's reach by Rego (mcpc.lib.protected and the rules using it). Go
// only reports where a write would land.

// scratchFacts adds to a scratch path's facts where in the worktree the
// write would land.
func scratchFacts(root string, f pathscope.Facts) pathFacts {
	pf := pathFacts{Facts: f, ScratchRoot: root}
	if f.Canonical != "" {
		pf.Destination = path.Join(root, f.Canonical)
	}
	return pf
}
