package app

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/controller"
	"github.com/mcpc/mcpc/internal/graph"
	"github.com/mcpc/mcpc/internal/indexer"
	"github.com/mcpc/mcpc/internal/retrieval"
	"github.com/mcpc/mcpc/internal/store"
)

// proofChains implements controller.ProofChains on the knowledge graph.
// With the embedded graph Sync writes what changed; a team's Neo4j graph is
// synced by `mcpc graph sync` and only read here.
type proofChains struct {
	store   graph.Store
	builder *graph.Builder // remembers unchanged files' facts between works
	ix      *indexer.Index
	code    *codeIndex
	opts    graph.Options
	sync    bool
	root    string
	mu      sync.Mutex // one sync at a time: the Builder is not concurrent
}

// maxChainsPerKind bounds the chains a new work gets of each kind.
const maxChainsPerKind = 2

var promptWord = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_-]{3,}`)

// Sync brings the embedded graph up to date with the index the controller
// has just refreshed (this writes only the changed files' facts). Invalid
// seeds fail the sync and leave the last good graph, which chains and
// policy facts still read: seeds do not change how code connects.
func (p *proofChains) Sync(ctx context.Context) error {
	if !p.sync {
		return nil
	}
	p.mu.Lock()
	_, err := p.builder.Sync(ctx, p.store, p.ix, false)
	p.mu.Unlock()
	if _, bad := err.(*graph.SourceError); bad {
		return nil
	}
	return err
}

// Walk builds the chains s.Chains names (the strategy decision's), those
// touching the work's signals first.
func (p *proofChains) Walk(ctx context.Context, s controller.ChainSignals) (controller.ProofChainResult, error) {
	var res controller.ProofChainResult
	req := graph.ChainRequest{AgGrid: slices.Contains(s.Chains, graph.ChainAgGrid), Federation: slices.Contains(s.Chains, graph.ChainFederation)}
	if !req.AgGrid && !req.Federation {
		return res, nil
	}
	terms := append([]string(nil), s.Lexemes...)
	for _, w := range promptWord.FindAllString(s.Prompt, 64) {
		terms = append(terms, strings.ToLower(w))
	}
	cb := &graph.ChainBuilder{Store: p.store, Root: p.root}
	req.Files, req.Terms, req.Max, req.RequireSignal = s.Files, terms, maxChainsPerKind, true
	chains, err := cb.Build(ctx, req)
	if err != nil || len(chains) == 0 {
		return res, err
	}
	var ranked []retrieval.Ranked
	seen := map[string]bool{}
	for _, c := range chains {
		for _, f := range c.Files() {
			if !seen[f] {
				seen[f] = true
				ranked = append(ranked, retrieval.Ranked{File: f, Lanes: []string{"proof_chain"}})
			}
		}
	}
	res.Candidates = p.code.candidates(ranked)
	res.Chains, err = json.Marshal(chains)
	return res, err
}

// newProofChains opens the graph serve walks chains on: the embedded one
// in the runtime store, or the configured Neo4j. A graph that cannot be
// opened (a Neo4j that does not answer) leaves serve without proof chains
// rather than without service; the returned closer releases the backend.
func newProofChains(ctx context.Context, ws string, cfg *config.Config, st *store.Store, ix *indexer.Index, log *zerolog.Logger) (controller.ProofChains, func() error) {
	gs, backend, err := openGraphStore(ctx, ws, cfg, st)
	if err != nil {
		if log != nil {
			log.Warn().Err(err).Msg("knowledge graph unavailable: no proof chains")
		}
		return nil, func() error { return nil }
	}
	pc := &proofChains{store: gs, builder: graph.NewBuilder(GraphOptions(cfg)), ix: ix, code: &codeIndex{ix: ix, root: ws}, opts: GraphOptions(cfg), sync: backend == "embedded", root: ws}
	return pc, gs.Close
}
