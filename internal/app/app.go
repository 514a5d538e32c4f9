// Package app wires one workspace's mcpc together: configuration, the shared
// store, the policy engine, the code index and the controller. Commands,
// tests and benchmarks open an App instead of repeating the wiring.
package app

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/controller"
	"github.com/mcpc/mcpc/internal/engine"
	"github.com/mcpc/mcpc/internal/indexer"
	"github.com/mcpc/mcpc/internal/observe"
	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/internal/retrieval"
	"github.com/mcpc/mcpc/internal/store"
)

// Options configures Open.
type Options struct {
	// Workspace is the governed repository. Default: the current directory.
	Workspace string
	// Bundles are OPA bundles (paths or http(s) URLs, polled for updates)
	// decided with together, each within its manifest's roots. Default:
	// the embedded policies.
	Bundles []string
	// BundlePoll is how often Bundles are checked for updates. Default 30s.
	BundlePoll time.Duration
	// Log receives diagnostics. Default: disabled.
	Log *zerolog.Logger
	// Pause is controller.Options.Pause. Default: nothing.
	Pause func()
	// NoLearning is controller.Options.NoLearning (benchmarks only).
	NoLearning bool
	// BundleKeyFile is the key bundles must be signed with (--bundle-key);
	// it overrides bundles.verification.keyFile, with that config's keyId,
	// algorithm, scope and exclude. Default: the config's.
	BundleKeyFile string
	// BundleKeyID overrides bundles.verification.keyId.
	BundleKeyID string
	// AllowInsecureBundleHTTP lets a bundle URL use plain http, as
	// bundles.allowInsecureHttp does. Default false.
	AllowInsecureBundleHTTP bool
	// Version is mcpc's version, as the decision log labels it.
	Version string
	// NoWarm leaves the first refresh of the code index to the first turn
	// (serve --no-warm); by default Open begins it, with the rest of what
	// that turn would wait for (early.go).
	NoWarm bool
}

// App is an opened workspace.
type App struct {
	Workspace  string
	Config     *config.Config
	Store      *store.Store
	Engine     *engine.Loader
	Index      *indexer.Index
	Controller *controller.Controller
	// Observer records events and decision logs; nil when observe.disabled.
	Observer   *observe.Pipeline
	closeGraph func() error // the knowledge graph's backend
	first      *early       // the first refresh and ranking tables, begun in Open
}

// StorePath is the runtime database, relative to the workspace.
const StorePath = ".ai/tmp/mcpc.db"

// ViewCachePath is where a process stores the code index's view for the
// next one (indexer.Options.ViewCache), beside the database.
const ViewCachePath = ".ai/tmp/index-view"

// GraphMemoPath is where the graph's builder keeps its memo for the next
// process (graph.Options.MemoFile), beside the database.
const GraphMemoPath = ".ai/tmp/graph-memo"

// Open wires the workspace.
func Open(ctx context.Context, opts Options) (*App, error) {
	ws, cfg, err := workspace(opts.Workspace)
	if err != nil {
		return nil, err
	}
	// A bundle that does not load leaves the engine empty: every turn is
	// then denied with POLICY_ERROR (fail closed) until it loads.
	verify, err := bundleVerification(ws, cfg.Bundles, opts)
	if err != nil {
		return nil, err
	}
	// The observer starts after the engine: updates reach it once it runs.
	var observer atomic.Pointer[observe.Pipeline]
	// The engine compiles its policies (about 0.1 CPU-s) on one core while
	// the index opens on the other: neither reads the other's state.
	loaded := make(chan *engine.Loader, 1)
	go func() {
		loaded <- engine.Load(ctx, engine.LoaderOptions{
			LocalDir: filepath.Join(ws, ".ai", "policies"),
			Bundles:  opts.Bundles, PollInterval: opts.BundlePoll, Log: opts.Log,
			Verify: verify, AllowInsecureHTTP: opts.AllowInsecureBundleHTTP || cfg.Bundles.AllowInsecureHTTP,
			OnUpdate: func(version, source string) {
				if o := observer.Load(); o != nil {
					o.BundleLoaded(version, source)
				}
			},
		})
	}()
	tickets, err := retrieval.NewTicketKeys(cfg.Connectors.Jira.KeyPattern)
	if err != nil {
		<-loaded
		return nil, err
	}
	st, ix, err := openIndex(ws, cfg, indexServing(!opts.NoWarm))
	if err != nil {
		<-loaded
		return nil, err
	}
	code := &codeIndex{ix: ix, root: ws, maxBytes: cfg.Pack.MaxBytes, tickets: tickets}
	var first *early // nil: nothing begun (NoWarm)
	if !opts.NoWarm {
		first = earlyStart(code, opts.Log) // early.go: what the first turn would wait for
		code.first = first
	}
	closeIndex := func() {
		first.stop()
		ix.Close() // its watcher; a failed Open reports its own error
		st.Close()
	}
	eng := <-loaded
	if len(opts.Bundles) == 0 && eng.Current() == nil {
		closeIndex()
		return nil, eng.LoadErr() // the embedded policies must always compile
	}
	chains, closeGraph := newProofChains(ctx, ws, cfg, st, ix, opts.Log)
	var domain controller.DomainFacts // nil interface when the graph is unavailable
	if pc, ok := chains.(*proofChains); ok {
		domain = pc
		if pc.sync && first != nil {
			first.syncGraph(pc)
		}
	}
	now, err := clockFromEnv()
	if err != nil {
		first.stop() // before the graph closes: it may start the graph's sync
		closeGraph()
		closeIndex()
		return nil, err
	}
	var obs *observe.Pipeline
	ctlOpts := controller.Options{
		Workspace: ws, Store: st, Engine: eng, Index: code,
		Config: cfg, Log: opts.Log, Pause: opts.Pause, ProofChains: chains, Domain: domain, Now: now, Contracts: contractsOf(chains),
		NoLearning: opts.NoLearning,
	}
	if !cfg.Observe.Disabled {
		if obs, err = observe.New(observe.Options{Store: st, Workspace: ws, Config: cfg.Observe, Version: opts.Version, Log: opts.Log}); err != nil {
			first.stop()
			closeGraph()
			closeIndex()
			return nil, err
		}
		ctlOpts.Observer = obs
		observer.Store(obs)
		if cur := eng.Current(); cur != nil {
			obs.BundleLoaded(cur.Version(), cur.Source())
		}
	}
	ctl, err := controller.New(ctlOpts)
	if err != nil {
		if obs != nil {
			obs.Close()
		}
		first.stop() // before the graph closes: it may start the graph's sync
		closeGraph()
		closeIndex()
		return nil, err
	}
	return &App{Workspace: ws, Config: cfg, Store: st, Engine: eng, Index: ix, Controller: ctl, Observer: obs, closeGraph: closeGraph, first: first}, nil
}

// bundleVerification reads the bundle signing key the flags or the config
// name; nil when neither names one. A key that cannot be read stops
// start-up: a server told to verify must not run without its key.
func bundleVerification(ws string, b config.Bundles, opts Options) (*engine.Verification, error) {
	v := b.Verification
	file := v.KeyFile
	if opts.BundleKeyFile != "" {
		file = opts.BundleKeyFile
	} else if file != "" && !filepath.IsAbs(file) {
		file = filepath.Join(ws, file)
	}
	if file == "" {
		return nil, nil
	}
	key, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("bundle verification key: %w", err)
	}
	id := v.KeyID
	if opts.BundleKeyID != "" {
		id = opts.BundleKeyID
	}
	return &engine.Verification{Key: string(key), KeyID: id, Algorithm: v.Algorithm, Scope: v.Scope, Exclude: v.Exclude}, nil
}

// workspace resolves the workspace root and loads its configuration.
func workspace(dir string) (string, *config.Config, error) {
	if dir == "" {
		dir = "."
	}
	ws, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, err
	}
	if ws, err = filepath.EvalSymlinks(ws); err != nil {
		return "", nil, err
	}
	cfg, err := config.Load(ws)
	return ws, cfg, err
}

// indexUse is what a process opens the code index for (see
// indexer.Options): only to refresh it (mcpc index), to read it, or to
// serve turns, walking the tree at once or not.
type indexUse struct{ countsOnly, watch, walkAtOpen bool }

var (
	indexCounting = indexUse{countsOnly: true}
	indexReading  = indexUse{}
)

func indexServing(walkAtOpen bool) indexUse { return indexUse{watch: true, walkAtOpen: walkAtOpen} }

// openIndex opens the store and the code index for use.
func openIndex(ws string, cfg *config.Config, use indexUse) (*store.Store, *indexer.Index, error) {
	if err := checkStateDir(ws); err != nil {
		return nil, nil, err
	}
	st, err := store.Open(filepath.Join(ws, StorePath))
	if err != nil {
		return nil, nil, err
	}
	ix, err := indexer.Open(st.DB(), indexer.Options{Root: ws, MaxFileBytes: cfg.Index.MaxFileBytes, Exclude: cfg.Index.Exclude, CountsFromStore: use.countsOnly, Watch: use.watch, WalkAtOpen: use.walkAtOpen,
		ViewCache: filepath.Join(ws, filepath.FromSlash(ViewCachePath))})
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st, ix, nil
}

// checkStateDir makes .ai/tmp without following a symlink at any level and
// refuses database files that are not regular files. SQLite opens its files
// by path, so a repository that committed .ai/tmp or mcpc.db as a link would
// otherwise have mcpc keep (and overwrite) its state wherever it points.
func checkStateDir(ws string) error {
	res, err := pathscope.New(ws)
	if err != nil {
		return err
	}
	dir := path.Dir(StorePath)
	state, err := res.Sub(dir)
	if err != nil {
		return fmt.Errorf("mcpc's state folder %s: %w", dir, err)
	}
	// The state folder ignores itself, so the database, packs and decisions
	// are never one `git add -A` away from a commit.
	if f := state.Resolve(".gitignore"); !f.Exists {
		if err := state.WriteFile(".gitignore", []byte("*\n"), false); err != nil {
			return fmt.Errorf("mcpc's state folder %s: %w", dir, err)
		}
	}
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		name := StorePath + suffix
		info, err := os.Lstat(filepath.Join(ws, filepath.FromSlash(name)))
		if err == nil && !info.Mode().IsRegular() {
			return fmt.Errorf("mcpc's database file %s is not a regular file (%s); remove it", name, info.Mode().Type())
		}
	}
	return nil
}

// OpenIndex opens only the store and the code index, for commands that need
// no policy engine (mcpc index): its Refresh counts the summary from the
// database, never reading the tree's facts into memory. Close the store
// when done.
func OpenIndex(dir string) (*store.Store, *indexer.Index, error) {
	ws, cfg, err := workspace(dir)
	if err != nil {
		return nil, nil, err
	}
	return openIndex(ws, cfg, indexCounting)
}

// Close flushes decision records and releases the store.
func (a *App) Close() error {
	a.Controller.Close()
	a.first.stop()              // before the index's watcher and the store close
	watchErr := a.Index.Close() // its watcher: the index itself stays readable
	if a.Observer != nil {
		a.Observer.Close() // after the controller: its last turns are queued
	}
	if a.closeGraph != nil {
		if err := a.closeGraph(); err != nil {
			a.Store.Close()
			return err
		}
	}
	a.Engine.Close() // its downloaded bundles
	if err := a.Store.Close(); err != nil {
		return err
	}
	return watchErr
}

// codeIndex adapts the indexer and retrieval to what the controller needs.
type codeIndex struct {
	ix       *indexer.Index
	root     string
	maxBytes int64
	// commits is the workspace's history as ranking read it last.
	commits retrieval.HistoryCache
	// tickets reads ticket keys as the requirements connector does
	// (connectors.jira.keyPattern), for the ticket lane.
	tickets *retrieval.TicketKeys
	// first is the refresh Open began; nil for an index no App opened.
	first *early
}

func (c *codeIndex) Refresh(ctx context.Context) error {
	if c.first != nil {
		if err := c.first.wait(ctx); err != nil {
			return err
		}
	}
	_, err := c.ix.Refresh(ctx, controller.IndexProgress(ctx))
	return err
}

func (c *codeIndex) Files() []string { return c.ix.Files() }

func (c *codeIndex) candidates(ranked []retrieval.Ranked) []controller.Candidate {
	files := make([]string, 0, len(ranked))
	for _, r := range ranked {
		files = append(files, r.File)
	}
	failed := map[string]bool{}
	for _, p := range c.ix.ParseFailures(files) {
		failed[p.File] = true
	}
	out := make([]controller.Candidate, 0, len(ranked))
	for _, r := range ranked {
		var size int64
		if fi, err := os.Lstat(filepath.Join(c.root, filepath.FromSlash(r.File))); err == nil {
			size = fi.Size()
		}
		out = append(out, controller.Candidate{File: r.File, Score: r.Score, Lanes: r.Lanes, Size: size, ParseError: failed[r.File]})
	}
	return out
}

func (c *codeIndex) Rank(ctx context.Context, q controller.RankQuery) ([]controller.Candidate, error) {
	history := c.history(ctx, q.Prompt)
	boost := retrieval.SideLanes(c.ix, retrieval.SideInputs{
		Prompt: q.Prompt, Lexemes: q.Lexemes, Attachments: q.Attachments,
		MemoryAnchors: q.MemoryAnchors, History: history, Tickets: c.tickets,
	})
	return c.candidates(retrieval.Rank(c.ix, retrieval.Query{
		Prompt: q.Prompt, Lexemes: q.Lexemes, Limit: q.Limit, MaxBytes: c.maxBytes * 2, Boost: boost, Tickets: c.tickets,
		History: history, // the co-change lane
	})), nil
}

// history is the workspace's latest commits for the ticket and recent
// lanes: the caller's (the eval's, on the context) or its own git's. A
// workspace that is no git checkout has none, and ranks without them.
func (c *codeIndex) history(ctx context.Context, prompt string) []retrieval.Commit {
	if h, ok := retrieval.HistoryFrom(ctx); ok {
		return h
	}
	h, err := c.commits.Read(ctx, c.root, c.tickets.HistoryNeeded(prompt))
	if err != nil {
		return nil
	}
	return h
}

func (c *codeIndex) Search(_ context.Context, need string, exclude map[string]bool, limit int) ([]controller.Candidate, error) {
	return c.candidates(retrieval.Search(c.ix, need, exclude, limit)), nil
}

func (c *codeIndex) Symbols(name string) []controller.Symbol {
	return convertSymbols(c.ix.Symbols(name))
}

func (c *codeIndex) FileSymbols(file string) []controller.Symbol {
	return convertSymbols(c.ix.FileSymbols(file))
}

func (c *codeIndex) Neighbors(file string) []controller.Edge {
	edges := c.ix.Neighbors(file)
	out := make([]controller.Edge, 0, len(edges))
	for _, e := range edges {
		out = append(out, controller.Edge(e))
	}
	return out
}

func (c *codeIndex) Usages(files []string) []controller.Usage {
	out := []controller.Usage{}
	for _, u := range c.ix.Usages("") {
		if slices.Contains(files, u.File) {
			out = append(out, controller.Usage(u))
		}
	}
	return out
}

func convertSymbols(in []indexer.Symbol) []controller.Symbol {
	out := make([]controller.Symbol, 0, len(in))
	for _, s := range in {
		out = append(out, controller.Symbol(s))
	}
	return out
}
