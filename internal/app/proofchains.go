package app

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

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
	bg      backgroundSync
}

// backgroundSync runs the embedded graph's syncs beside the turns, one at
// a time (the Builder is not concurrent). A turn waits for the sync up to
// its own step deadline and then reads the last synced graph; a sync still
// writing goes on, in its bounded transactions whose pauses let the turns
// write. Cut short with the turn instead, the first sync of a 48,000-file
// tree (47,552 groups, about a minute) never wrote a group's hash in any
// turn, so every turn and every new process began it again and the graph
// was never written at all.
type backgroundSync struct {
	mu      sync.Mutex
	ctx     context.Context    // the process's: stop cancels it
	cancel  context.CancelFunc // nil until the first sync
	wg      sync.WaitGroup
	running *syncRun // the sync in flight, nil when none is
	started int      // syncs started so far
}

// syncRun is one sync: done is closed when it ended, with err.
type syncRun struct {
	seq  int
	done chan struct{}
	err  error
}

// maxChainsPerKind bounds the chains a new work gets of each kind.
const maxChainsPerKind = 2

var promptWord = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_-]{3,}`)

// Sync brings the embedded graph up to date with the index the controller
// has just refreshed (this writes only the changed files' facts). Invalid
// seeds fail the sync and leave the last good graph, which chains and
// policy facts still read: seeds do not change how code connects.
//
// A sync that ran since before this call began may have built from an
// index older than the one just refreshed, so once it ends a new one
// starts (nothing to do when the stamps hold) and that is the one waited
// for. When ctx ends first Sync returns nil: the graph is the last synced
// one, as readers of a partly written change see it.
func (p *proofChains) Sync(ctx context.Context) error {
	if !p.sync {
		return nil
	}
	p.bg.mu.Lock()
	first := p.bg.started
	p.bg.mu.Unlock()
	for {
		run := p.bg.join(p.syncOnce)
		select {
		case <-run.done:
		case <-ctx.Done():
			return nil
		}
		if run.seq > first {
			if _, bad := run.err.(*graph.SourceError); bad {
				return nil
			}
			return run.err
		}
	}
}

// syncOnce is one sync of the Builder under ctx.
func (p *proofChains) syncOnce(ctx context.Context) error {
	_, err := p.builder.Sync(ctx, p.store, p.ix, false)
	return err
}

// join returns the sync in flight, or starts one running sync.
func (b *backgroundSync) join(do func(context.Context) error) *syncRun {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.running != nil {
		return b.running
	}
	if b.cancel == nil {
		b.ctx, b.cancel = context.WithCancel(context.Background())
	}
	b.started++
	run := &syncRun{seq: b.started, done: make(chan struct{})}
	b.running = run
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		run.err = do(b.ctx)
		b.mu.Lock()
		b.running = nil
		b.mu.Unlock()
		close(run.done)
	}()
	return run
}

// stop cancels the sync in flight (SQLite rolls its transaction back; the
// groups it wrote stay written) and waits for it to end, at most
// stopWait: the building half of a sync looks at no context (about 1.5 s
// at 48,000 files), and a process told to stop must not wait past a
// second for a build it would throw away. A sync still building then
// finds the store closed when it comes to write.
func (b *backgroundSync) stop() {
	b.mu.Lock()
	cancel := b.cancel
	b.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	ended := make(chan struct{})
	go func() {
		b.wg.Wait()
		close(ended)
	}()
	select {
	case <-ended:
	case <-time.After(stopWait):
	}
}

// stopWait bounds how long stop waits for the sync in flight.
const stopWait = 500 * time.Millisecond

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
	pc := &proofChains{store: gs, builder: graph.NewBuilder(builderOptions(ws, cfg)), ix: ix, code: &codeIndex{ix: ix, root: ws}, opts: GraphOptions(cfg), sync: backend == "embedded", root: ws}
	return pc, func() error {
		pc.bg.stop() // before the store it writes to closes
		pc.builder.Wait()
		return gs.Close()
	}
}
