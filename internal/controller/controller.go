// Package controller runs mcpc's turns: it gathers the facts a decision needs
// (the work's state, its pack and plan, canonical paths, file hashes, the
// agent's budget), asks the policy engine for the decision, and executes what
// the decision allows: state transitions, pack writes, reads, patches and
// validations. It never decides policy itself and never sees JSON-RPC or OPA
// types.
package controller

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/memory"
	"github.com/mcpc/mcpc/internal/patch"
	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/requirements"
	"github.com/mcpc/mcpc/internal/sandbox"
	"github.com/mcpc/mcpc/internal/secrets"
	"github.com/mcpc/mcpc/internal/store"
	"github.com/mcpc/mcpc/schemas"
)

// decider evaluates the policy decision for an input document. The engine
// implements it; input and result are returned as JSON for the decision
// record.
type decider interface {
	Evaluate(ctx context.Context, doc any, out any) (input, result []byte, err error)
	// EvaluateStage1 evaluates the first stage (data.mcpc.main.stage1).
	EvaluateStage1(ctx context.Context, doc any, out any) (input, result []byte, err error)
	// EvaluateQuery evaluates another prepared query (engine.ProgressQuery).
	EvaluateQuery(ctx context.Context, query string, doc any, out any) error
	Version() string
	Data(path ...string) any
}

// Options configures a Controller.
type Options struct {
	// Workspace is the governed repository root (required).
	Workspace string
	// Store is the shared runtime database (required).
	Store *store.Store
	// Engine decides every turn (required).
	Engine decider
	// Index answers retrieval and symbol queries (required).
	Index CodeIndex
	// Config is the merged configuration. Default: config.Load(Workspace).
	Config *config.Config
	// Log receives diagnostics. Default: a disabled logger.
	Log *zerolog.Logger
	// Now is the clock. Default: MCPC_NOW when set (a fixed time), else
	// time.Now.
	Now func() time.Time
	// Redactor removes secrets from command output before it reaches an
	// agent. Default: the secret detector of internal/secrets.
	Redactor outputRedactor
	// Pause runs in each pause between turns (once the recorder has
	// written what waited for it), for process upkeep that must not land
	// on a turn, such as a garbage collection. Default: nothing.
	Pause func()
	// ProofChains walks proof chains at initialize_work. Default: none.
	ProofChains ProofChains
	// Contracts reads component contracts and migration rules. Default: none.
	Contracts ComponentContracts
	// Observer receives every finished turn (events, decision logs).
	// Default: none.
	Observer Observer
	// Domain gathers the knowledge graph's policy facts. Default: none.
	Domain DomainFacts
	// NoLearning turns the friction ledger off, so a benchmark can measure
	// what it costs a denied turn. serve never sets it.
	NoLearning bool
}

// Controller runs turns for one workspace. It is safe for concurrent use,
// and several processes may run one on the same workspace.
type Controller struct {
	root     string
	paths    *pathscope.Resolver
	store    *store.Store
	engine   decider
	index    CodeIndex
	cfg      *config.Config
	log      zerolog.Logger
	now      func() time.Time
	requests *schemas.RequestChecker
	views    workViews
	// envelopes keeps the last envelope made (envelope.go).
	envelopes envelopeMemo
	records   *recorder
	// configFacts is cfg as policy reads it (configFactsOf), built once.
	configFacts configMember
	// codemods are the built-in codemods and those cfg declares.
	codemods *patch.Registry
	// sandbox runs validation commands and side effects; sandboxFacts is
	// what policy knows of it.
	sandbox      *sandbox.Sandbox
	sandboxFacts sandboxMember
	redactor     outputRedactor
	observer     Observer
	// budget is the process's session and the answers not charged yet.
	budget budgetBook

	chains ProofChains           // nil: no proof chains
	reqs   *requirements.Fetcher // initialize_work's tickets and API operations
	domain DomainFacts           // nil: no graph policy facts
	learn  *memory.Learner
	// fewShots keeps lib/memory's active few-shots between trace turns.
	fewShots fewShotCache

	contracts contractChecker // its reader nil: no contract facts

	// cleanScans: pack file to the hash of content the secret detector
	// found clean (markSecrets, readable), so reads of it skip redaction;
	// redactions: pack file to its last redaction (readable).
	cleanScans sync.Map
	redactions sync.Map
	// packScans keeps markSecrets' verdicts between processes, by content
	// (packScanFile).
	packScans *secrets.Cache

	verbsMu      sync.Mutex
	verbsVersion string
	verbs        map[string]protocol.VerbDescription
	// the loaded policy's custom element tag pattern (tagpattern.go)
	tagMu       sync.Mutex
	tagVersion  string
	tagRe       *regexp.Regexp
	tagCompiled bool
}

// New builds a Controller.
func New(opts Options) (*Controller, error) {
	if opts.Workspace == "" || opts.Store == nil || opts.Engine == nil || opts.Index == nil {
		return nil, fmt.Errorf("controller: Workspace, Store, Engine and Index are required")
	}
	root, err := filepath.Abs(opts.Workspace)
	if err != nil {
		return nil, err
	}
	res, err := pathscope.New(root)
	if err != nil {
		return nil, err
	}
	cfg := opts.Config
	if cfg == nil {
		if cfg, err = config.Load(root); err != nil {
			return nil, err
		}
	}
	requests, err := schemas.NewRequestChecker()
	if err != nil {
		return nil, err
	}
	c := &Controller{
		root: res.Root(), paths: res, store: opts.Store, engine: opts.Engine, index: opts.Index,
		cfg: cfg, now: opts.Now, requests: requests, log: zerolog.Nop(), chains: opts.ProofChains,
		domain: opts.Domain,
	}
	if opts.Log != nil {
		c.log = *opts.Log
	}
	if c.now == nil {
		if c.now, err = envClock(); err != nil {
			return nil, err
		}
	}
	if c.codemods, err = patch.NewRegistry(cfg.Codemods.Custom); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	facts := configFactsOf(cfg)
	facts.Codemods = c.codemods.Custom()
	if c.configFacts, err = encodeOnce(facts); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	c.useContracts(opts.Contracts)
	c.redactor = opts.Redactor
	c.observer = opts.Observer
	if c.redactor == nil {
		c.redactor = detectorRedaction{}
	}
	c.sandbox = c.newSandbox()
	c.packScans = secrets.NewCache(packScanCache{c})
	if c.sandboxFacts, err = encodeOnce(sandboxFacts{Available: c.sandbox.Available(), AllowUnsandboxed: c.sandbox.AllowUnsandboxed(), Reason: c.sandbox.Reason()}); err != nil {
		return nil, err
	}
	c.reqs = requirements.New(cfg.Connectors, c.paths, c.now, c.log)
	c.records = newRecorder(c.log, c.writeState, c.checkpointInPause)
	c.records.pause = opts.Pause
	if !opts.NoLearning {
		c.learn = memory.NewLearner(c.paths, cfg, c.describeRule, c.log)
	}
	return c, nil
}

// checkpointEvery is how many recorded turns (about 5 WAL pages each) a
// pause lets pass before it checkpoints the store. Not every pause: a
// checkpoint resets the WAL, and with it the page cache of every
// connection, so the next turn reads its pages from disk again (0.5-1 ms
// here). SQLite's own checkpoint remains the backstop for long bursts.
const checkpointEvery = 500

// checkpointInPause is the recorder's idle upkeep: it checkpoints the store
// once checkpointEvery turns have been recorded since the last time.
func (c *Controller) checkpointInPause(records int) bool {
	if records < checkpointEvery {
		return false
	}
	if _, _, err := c.store.Checkpoint(context.Background()); err != nil {
		c.log.Debug().Err(err).Msg("checkpoint in a pause did not run; SQLite checkpoints later by itself")
	}
	return true
}

// Close waits for pending decision record files to be written.
func (c *Controller) Close() {
	c.records.close()
	if c.learn != nil {
		c.learn.Close()
	}
}

// Root is the absolute workspace root.
func (c *Controller) Root() string { return c.root }

// verbCatalogue decodes the policy data's verb descriptions (the same file
// the gate rules read), so descriptions and gating cannot disagree. It is
// decoded again only when the policy bundle changes.
func (c *Controller) verbCatalogue() map[string]protocol.VerbDescription {
	c.verbsMu.Lock()
	defer c.verbsMu.Unlock()
	if v := c.engine.Version(); v != c.verbsVersion || c.verbs == nil {
		out := map[string]protocol.VerbDescription{}
		if raw, err := json.Marshal(c.engine.Data("data", "mcpc", "verbs")); err == nil {
			_ = json.Unmarshal(raw, &out)
		}
		c.describeCustomCodemods(out)
		c.verbs, c.verbsVersion = out, v
	}
	return c.verbs
}

// newID mints an id like "work-3f9a0c1d2e4b".
func newID(prefix string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return prefix + "-" + hex.EncodeToString(b[:])
}

// workDir is the work's bucket, relative to the workspace.
func workDir(workID string) string { return ".ai/tmp/work/" + workID }
