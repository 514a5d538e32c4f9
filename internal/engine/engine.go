// Package engine owns mcpc's embedded OPA: it loads the policy bundle (the
// defaults compiled into the binary, or a bundle from disk), prepares the one
// decision query once, and evaluates it per turn against a pre-parsed input.
// It fails closed: any error, an undefined result or a malformed decision is
// returned as an error, which callers turn into a POLICY_ERROR denial. No OPA
// type leaves this package.
package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/keys"
	"github.com/open-policy-agent/opa/v1/loader"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/mcpc/mcpc/policies"
)

// DecisionQuery is the entrypoint that decides a turn: every rule category
// that applies to its verb.
const DecisionQuery = "data.mcpc.main.decision"

// Stage1Query is the first stage's entrypoint: request, gate and scope rules
// on cheap facts, and whether the verb stage (DecisionQuery) must follow.
const Stage1Query = "data.mcpc.main.stage1"

// ProgressQuery is the plan progress of a set of node states: the
// controller asks it again when a turn's execution changed node statuses
// after its decision (lib/progress).
const ProgressQuery = "data.mcpc.lib.progress.summary"

// MemoryQuery is which memory records count, and the domain anchors the
// retrieval's memory lane boosts (lib/memory), asked before ranking.
const MemoryQuery = "data.mcpc.lib.memory.summary"

// LifecycleQuery is the memory lifecycle on the clock: transitions, the
// active records and their few-shots (lib/memory lifecycle.rego).
const LifecycleQuery = "data.mcpc.lib.memory.lifecycle_summary"

// StrategyQuery is the strategy decision initialize_work asks before it
// walks proof chains: which chains the ContextSignature calls for.
const StrategyQuery = "data.mcpc.lib.strategy.chain_decision"

// extraQueries are prepared besides the decision, for EvaluateQuery.
var extraQueries = []string{ProgressQuery, MemoryQuery, LifecycleQuery, StrategyQuery}

// DefaultRoots are the roots the default policies claim (bundles/default/
// .manifest): their packages under mcpc, their tables under data.data.mcpc
// (policies/data rooted as `opa test policies/` roots it). A domain bundle
// loaded beside them claims another root, e.g. mcpcdomain/adp_sdf.
var DefaultRoots = []string{"mcpc", "data/mcpc"}

// Options configures New.
type Options struct {
	// BundlePath is an OPA bundle (a .tar.gz built by `mcpc policy build` or
	// `opa build`, or a directory laid out like policies/). Default: the
	// policies embedded in the binary.
	BundlePath string
	// BundlePaths are more bundles decided with together with BundlePath
	// (or in its place when it is empty): each keeps to the roots its
	// .manifest claims, and bundles whose roots overlap are refused, as
	// OPA refuses them. A team ships its domain data (a migration's rules)
	// as a data-only bundle beside the default one. Default: none.
	BundlePaths []string
	// Query overrides the decision query. Default: DecisionQuery.
	Query string
	// Packages, when set, compiles only the modules whose package is one
	// of these (data.mcpc.hook) or below one: a query that needs a part of
	// the policy (mcpc hook, a process per event) skips compiling the rest.
	// Default: every module.
	Packages []string
	// Strict compiles as `opa check --strict` does: unused imports and
	// variables, shadowed names and deprecated built-ins are errors.
	// Default false.
	Strict bool
	// LocalDir holds repository-local Rego (a workspace's .ai/policies):
	// modules under package mcpc.local.* that add violations beside the
	// bundle's rules (docs: README, "Repository-local policy"). Default:
	// none.
	LocalDir string
	// Verify, when set, requires BundlePath's .signatures.json to verify
	// against its key (OPA bundle signing) and every file to match its
	// signed hash; a directory is then read in bundle layout. Default: no
	// verification (the bundle is the operator's own file).
	Verify *Verification
}

// Verification is the key a bundle's signature must verify against.
type Verification struct {
	// Key is a PEM public key (RS*, PS*, ES*) or an HMAC secret (HS*).
	Key string
	// KeyID names the key (the signature's kid). Default "default".
	KeyID string
	// Algorithm is the signing algorithm. Default RS256.
	Algorithm string
	// Scope, when set, must match the signature's scope claim.
	Scope string
	// Exclude lists bundle files left out of verification.
	Exclude []string
}

func (v *Verification) config() (*bundle.VerificationConfig, error) {
	id := v.KeyID
	if id == "" {
		id = "default"
	}
	alg := v.Algorithm
	if alg == "" {
		alg = "RS256"
	}
	if !keys.IsSupportedAlgorithm(alg) {
		return nil, fmt.Errorf("unsupported signing algorithm %q", alg)
	}
	// Built directly: keys.NewKeyConfig would first take the key for a file
	// name, and PEM text is not one.
	kc := &keys.Config{Key: v.Key, Algorithm: alg, Scope: v.Scope}
	return bundle.NewVerificationConfig(map[string]*keys.Config{id: kc}, id, v.Scope, v.Exclude), nil
}

// readVerified reads a bundle file or directory with OPA's bundle reader,
// which refuses it unless its signature verifies and every file's hash
// matches the signed one (an unsigned bundle, a tampered file, a file the
// signature does not list, another key).
func readVerified(path string, v *Verification) (*bundle.Bundle, error) {
	vc, err := v.config()
	if err != nil {
		return nil, fmt.Errorf("verification key: %w", err)
	}
	var r *bundle.Reader
	if isDir(path) {
		r = bundle.NewCustomReader(bundle.NewDirectoryLoader(path))
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = bundle.NewReader(f)
	}
	b, err := r.WithBundleVerificationConfig(vc).WithProcessAnnotations(true).Read()
	if err != nil {
		return nil, fmt.Errorf("signature verification: %w", err)
	}
	return &b, nil
}

// Engine evaluates decisions with a prepared query. It is safe for
// concurrent use.
type Engine struct {
	query  rego.PreparedEvalQuery
	stage1 rego.PreparedEvalQuery
	// oneStage: the bundle has no stage1 rule (written before stages).
	oneStage bool
	extra    map[string]rego.PreparedEvalQuery // by query: extraQueries
	version  string
	source   string
	data     map[string]any
	docs     map[string]RuleDoc
	rules    []string // rule packages, sorted
	literals []CodeLiteral
	// static and base stand in for OPA's per-query caches (cache.go).
	static *staticRules
	base   dataCache
}

// CodeLiteral is a denial code written in Rego as a literal {"code": "X"}
// rather than read from the rule's METADATA: policy check reports one no
// METADATA documents.
type CodeLiteral struct {
	Code     string `json:"code"`
	Location string `json:"location"`
}

// CodeLiterals lists the {"code": "X"} literals of the modules decided with.
func (e *Engine) CodeLiterals() []CodeLiteral { return e.literals }

func codeLiterals(b *bundle.Bundle) []CodeLiteral {
	var out []CodeLiteral
	key := ast.StringTerm("code")
	for _, m := range b.Modules {
		if m.Parsed == nil {
			continue
		}
		ast.WalkTerms(m.Parsed, func(t *ast.Term) bool {
			obj, ok := t.Value.(ast.Object)
			if !ok {
				return false
			}
			if v := obj.Get(key); v != nil {
				if code, ok := v.Value.(ast.String); ok {
					loc := m.Path
					if v.Location != nil {
						loc = v.Location.String()
					}
					out = append(out, CodeLiteral{Code: string(code), Location: loc})
				}
			}
			return false
		})
	}
	return out
}

// New compiles the policies and prepares the decision query.
func New(ctx context.Context, opts Options) (*Engine, error) {
	q := opts.Query
	if q == "" {
		q = DecisionQuery
	}
	b, source, err := readBundles(opts)
	if err != nil {
		return nil, err
	}
	if len(b.Modules) == 0 {
		return nil, &Error{Code: "bundle_empty", Location: source, Message: "the bundle holds no Rego modules"}
	}
	local, err := localModules(opts.LocalDir)
	if err != nil {
		return nil, &Error{Code: "local_policy", Location: opts.LocalDir, Message: err.Error()}
	}
	b.Modules = append(b.Modules, local...)
	e := &Engine{source: source, version: bundleVersion(b), data: b.Data, docs: ruleDocs(b), rules: rulePackages(b), literals: codeLiterals(b)}
	// Modules and data go in directly rather than as an activated bundle:
	// the engine never updates policy in place, it builds a new Engine.
	// One compiler and store for every query: the second query compiles
	// only itself.
	compiler := ast.NewCompiler().WithStrict(opts.Strict)
	store := inmem.NewFromObjectWithOpts(b.Data, inmem.OptRoundTripOnWrite(false), inmem.OptReturnASTValuesOnRead(true))
	regoOpts := []func(*rego.Rego){rego.Query(q), rego.Strict(opts.Strict), rego.Store(store), rego.Compiler(compiler)}
	for _, m := range b.Modules {
		if inPackages(m.Parsed, opts.Packages) {
			regoOpts = append(regoOpts, rego.ParsedModule(m.Parsed))
		}
	}
	pq, err := rego.New(regoOpts...).PrepareForEval(ctx)
	if err != nil {
		return nil, compileError(source, err)
	}
	e.query = pq
	e.extra = map[string]rego.PreparedEvalQuery{}
	e.static = findStaticRules(compiler)
	root, err := storage.ReadOne(ctx, store, storage.Path{})
	if err != nil {
		return nil, &Error{Code: "bundle_load", Location: source, Message: err.Error()}
	}
	if v, ok := root.(ast.Value); ok {
		e.base = dataCache{root: v}
	}
	if opts.Query != "" {
		return e, nil // a custom query has no first stage and no extra queries: both fail closed
	}
	for _, query := range extraQueries {
		extra := rego.New(rego.Query(query), rego.Strict(opts.Strict), rego.Store(store), rego.Compiler(compiler))
		if e.extra[query], err = extra.PrepareForEval(ctx); err != nil {
			return nil, compileError(source, err)
		}
	}
	// The first stage shares the compiled modules.
	if len(compiler.GetRulesExact(ast.MustParseRef(Stage1Query))) == 0 {
		// A bundle written before stages decides in one query: its
		// decision is the first stage, always followed by the verb stage
		// when it allows (Go gathers every fact, as before stages).
		e.oneStage = true
		return e, nil
	}
	first := rego.New(rego.Query(Stage1Query), rego.Strict(opts.Strict), rego.Store(store), rego.Compiler(compiler))
	if e.stage1, err = first.PrepareForEval(ctx); err != nil {
		return nil, compileError(source, err)
	}
	return e, nil
}

// readBundles reads the configured bundles and merges them; source names
// them for errors and the decision log.
func readBundles(opts Options) (*bundle.Bundle, string, error) {
	if b, ok, err := readEmbeddedPackages(opts); ok {
		return b, sourceName(""), err
	}
	paths := opts.BundlePaths
	if opts.BundlePath != "" || len(paths) == 0 {
		paths = append([]string{opts.BundlePath}, paths...)
	}
	if len(paths) == 1 {
		b, err := readBundle(paths[0], opts.Verify)
		return b, sourceName(paths[0]), err
	}
	bundles := make([]*bundle.Bundle, 0, len(paths))
	names := make([]string, 0, len(paths))
	for _, path := range paths {
		b, err := readBundle(path, opts.Verify)
		if err != nil {
			return nil, path, err
		}
		if b.Manifest.Roots == nil {
			b.Manifest.Roots = &[]string{""}
		}
		// OPA's merge copies only the data under each bundle's roots: data
		// outside them would vanish without a word.
		if at := dataOutside(b.Data, nil, *b.Manifest.Roots); at != "" {
			return nil, path, &Error{Code: "bundle_roots", Location: sourceName(path), Message: fmt.Sprintf("data at %s is outside the manifest's roots %q", at, *b.Manifest.Roots)}
		}
		bundles = append(bundles, b)
		names = append(names, sourceName(path))
	}
	source := strings.Join(names, ",")
	merged, err := bundle.Merge(bundles)
	if err != nil {
		// Overlapping roots (two bundles claiming the same data) and data
		// or packages outside a bundle's roots land here.
		return nil, source, &Error{Code: "bundle_roots", Location: source, Message: err.Error()}
	}
	return merged, source, nil
}

// dataOutside is the first data path (a/b/c) under at that no root
// covers, or "".
func dataOutside(node any, at []string, roots []string) string {
	here := strings.Join(at, "/")
	below := false
	for _, r := range roots {
		if r == "" || r == here || strings.HasPrefix(here, r+"/") {
			return "" // covered
		}
		if here == "" || strings.HasPrefix(r, here+"/") {
			below = true
		}
	}
	obj, ok := node.(map[string]any)
	if !below || !ok {
		if ok && len(obj) == 0 {
			return "" // an empty object holds nothing
		}
		return "/" + here
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if out := dataOutside(obj[k], append(slices.Clone(at), k), roots); out != "" {
			return out
		}
	}
	return ""
}

func sourceName(path string) string {
	if path == "" {
		return "embedded"
	}
	return path
}

// readBundle reads one bundle: the embedded policies for "", a verified
// one when v is set, a policies directory, or a bundle file.
func readBundle(path string, v *Verification) (*bundle.Bundle, error) {
	var (
		b   *bundle.Bundle
		err error
	)
	switch {
	case path == "":
		b, err = loadFS(policies.FS)
		if err == nil {
			b.Manifest.Roots = &[]string{DefaultRoots[0], DefaultRoots[1]}
		}
	case v != nil:
		b, err = readVerified(path, v)
	case isDir(path):
		// A directory is read the way `opa test DIR` reads it: every JSON
		// file is data at its folder's path. A bundle reader would take only
		// files named data.json and silently drop policies/data/*.json.
		b, err = loadFS(os.DirFS(path))
		if err == nil {
			err = readManifest(filepath.Join(path, bundle.ManifestExt), b)
		}
	default:
		b, err = loader.NewFileLoader().WithSkipBundleVerification(true).WithProcessAnnotation(true).AsBundle(path)
	}
	if err != nil {
		return nil, &Error{Code: "bundle_load", Location: sourceName(path), Message: err.Error()}
	}
	return b, nil
}

// readManifest sets b's manifest from a .manifest file when there is one.
func readManifest(path string, b *bundle.Bundle) error {
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var m bundle.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	b.Manifest = m
	return nil
}

// compileError keeps each compiler error apart, with its location, when
// the compiler reports them as a list.
func compileError(source string, err error) error {
	var list ast.Errors
	if !errors.As(err, &list) || len(list) == 0 {
		return &Error{Code: "compile", Location: source, Message: err.Error()}
	}
	out := make(Errors, 0, len(list))
	for _, e := range list {
		loc := source
		if e.Location != nil {
			loc = e.Location.String()
		}
		out = append(out, &Error{Code: "compile", Location: loc, Message: e.Code + ": " + e.Message})
	}
	return out
}

// Signing is the key WriteBundle signs with, as `opa build --signing-key`.
type Signing struct {
	// Key is a file holding a PEM private key (RS*, PS*, ES*) or an HMAC
	// secret (HS*), as `opa build --signing-key` takes it.
	Key string
	// KeyID is written as the signature's kid. Default "default".
	KeyID string
	// Algorithm is the signing algorithm. Default RS256.
	Algorithm string
	// Scope, when set, is written as the signature's scope claim.
	Scope string
}

// WriteBundle writes the policies directory dir, read as the engine reads
// one (tests left out), as a standard OPA bundle to w, and says how many
// modules it holds. Its modules and data are the ones New would decide
// with, so the bundle has the directory's Version. With sign, the bundle
// carries a .signatures.json over every file, as `opa build --signing-key`
// writes it.
func WriteBundle(dir string, w io.Writer, sign *Signing) (modules int, err error) {
	return WriteBundleManifest(dir, "", w, sign)
}

// WriteBundleManifest is WriteBundle with the bundle's .manifest (revision
// and roots) read from manifest, or from dir/.manifest when manifest is
// "". Without one the bundle claims every root, as before: it cannot be
// loaded beside another bundle. A data-only bundle (no Rego) is written
// too: it is loaded beside one that decides.
func WriteBundleManifest(dir, manifest string, w io.Writer, sign *Signing) (modules int, err error) {
	b, err := loadFS(os.DirFS(dir))
	if err != nil {
		return 0, &Error{Code: "bundle_load", Location: dir, Message: err.Error()}
	}
	if manifest == "" {
		manifest = filepath.Join(dir, bundle.ManifestExt)
	}
	if err := readManifest(manifest, b); err != nil {
		return 0, &Error{Code: "bundle_manifest", Location: manifest, Message: err.Error()}
	}
	if b.Manifest.Roots == nil {
		b.Manifest.Roots = &[]string{""}
	}
	if sign != nil {
		id := sign.KeyID
		if id == "" {
			id = "default"
		}
		sc := bundle.NewSigningConfig(sign.Key, sign.Algorithm, "")
		if sign.Scope != "" {
			// The claims file is the only way OPA's signer takes extra
			// claims; scope is the one mcpc writes.
			f, err := os.CreateTemp("", "mcpc-claims-*.json")
			if err != nil {
				return 0, err
			}
			defer os.Remove(f.Name())
			claims, _ := json.Marshal(map[string]string{"scope": sign.Scope})
			_, err = f.Write(claims)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return 0, err
			}
			sc.ClaimsPath = f.Name()
		}
		if err := b.GenerateSignature(sc, id, false); err != nil {
			return 0, &Error{Code: "bundle_sign", Location: dir, Message: err.Error()}
		}
	}
	if err := bundle.NewWriter(w).Write(*b); err != nil {
		return 0, err
	}
	return len(b.Modules), nil
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// loadFS reads a policies tree as a bundle rooted where `opa test
// policies/` is rooted, so data paths are the same in tests and at run time.
// Only Rego and JSON/YAML data are read; test files are left out: they are
// for `opa test`, not for deciding.
func loadFS(fsys fs.FS) (*bundle.Bundle, error) { return loadFSDirs(fsys, nil) }

// loadFSDirs is loadFS reading only the Rego files under dirs (all when
// dirs is nil); data is read whole.
func loadFSDirs(fsys fs.FS, dirs []string) (*bundle.Bundle, error) {
	res, err := loader.NewFileLoader().WithFS(fsys).WithProcessAnnotation(true).
		Filtered([]string{"."}, func(path string, info fs.FileInfo, _ int) bool {
			if info.IsDir() {
				return false
			}
			switch filepath.Ext(info.Name()) {
			case ".rego":
				return strings.HasSuffix(info.Name(), "_test.rego") || !underDirs(path, dirs)
			case ".json", ".yaml", ".yml":
				return false
			}
			return true
		})
	if err != nil {
		return nil, err
	}
	b := &bundle.Bundle{Data: res.Documents}
	names := make([]string, 0, len(res.Modules))
	for name := range res.Modules {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		m := res.Modules[name]
		b.Modules = append(b.Modules, bundle.ModuleFile{
			URL: m.Name, Path: m.Name, Raw: m.Raw, Parsed: m.Parsed,
		})
	}
	return b, nil
}

// bundleVersion is a content hash of the modules and data: the
// policyVersionSet value a plan must carry.
func bundleVersion(b *bundle.Bundle) string {
	h := sha256.New()
	mods := make([]bundle.ModuleFile, len(b.Modules))
	copy(mods, b.Modules)
	// A bundle file's reader roots module paths at "/", a directory's
	// reader does not: the same policies have one version either way.
	path := func(m bundle.ModuleFile) string { return strings.TrimPrefix(m.Path, "/") }
	sort.Slice(mods, func(i, j int) bool { return path(mods[i]) < path(mods[j]) })
	for _, m := range mods {
		h.Write([]byte(path(m)))
		h.Write(m.Raw)
	}
	data, _ := json.Marshal(b.Data) // map keys marshal sorted
	h.Write(data)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
}

// Version identifies the loaded policies (a content hash).
func (e *Engine) Version() string { return e.version }

// Source says where the policies came from ("embedded" or a path).
func (e *Engine) Source() string { return e.source }

// Data returns a document from the bundle's data by its path, e.g.
// Data("data", "mcpc", "verbs"); nil when absent.
func (e *Engine) Data(path ...string) any {
	var cur any = e.data
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	return cur
}

// Input is a decision input, parsed once so that it can be evaluated and
// saved without converting it twice.
type Input struct {
	JSON  []byte
	value ast.Value
}

// JSONAppender is a document that writes its own JSON text, the text
// json.Marshal would write, faster (the controller's input keeps the text
// of what does not change between turns). ParseInput parses that text
// whole before anything is judged, so it is checked as any input is.
type JSONAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// lastInputSize is the length of the last input a JSONAppender wrote.
var lastInputSize atomic.Int64

// ParseInput marshals doc to JSON and to OPA's value form once. The value
// is read from the JSON text in one pass (valueFromJSON), not decoded to Go
// values and converted again.
func ParseInput(doc any) (*Input, error) {
	var (
		raw []byte
		err error
	)
	if a, ok := doc.(JSONAppender); ok {
		// Sized like the last input, so that the text is not grown and
		// copied on the way.
		raw, err = a.AppendJSON(make([]byte, 0, lastInputSize.Load()+512))
		lastInputSize.Store(int64(len(raw)))
	} else {
		raw, err = json.Marshal(doc)
	}
	if err != nil {
		return nil, &Error{Code: "input", Message: err.Error()}
	}
	v, err := valueFromJSON(raw)
	if err != nil {
		return nil, &Error{Code: "input", Message: err.Error()}
	}
	return &Input{JSON: raw, value: v}, nil
}

// astResult makes rego hand back results in OPA's value form rather than
// as Go maps and slices: resultJSON writes the JSON from that directly.
var astResult = rego.EvalGenerateJSON(func(t *ast.Term, _ *rego.EvalContext) (any, error) {
	return t.Value, nil
})

// Eval evaluates the decision query and decodes the result into out (a
// pointer to a struct or map). Undefined or non-object results are errors.
func (e *Engine) Eval(ctx context.Context, in *Input, out any) (json.RawMessage, error) {
	return e.eval(ctx, e.query, in, out)
}

// EvalTraced is Eval with a query tracer (OPA's profiler, for one) watching
// the evaluation. It evaluates with the Engine's caches, so a profile of it
// shows what a turn pays: `opa eval --profile` evaluates every rule afresh,
// the memoized views over MigrationRules, contracts and records included,
// and overstates them.
func (e *Engine) EvalTraced(ctx context.Context, in *Input, out any, tracer topdown.QueryTracer) (json.RawMessage, error) {
	return e.eval(ctx, e.query, in, out, rego.EvalQueryTracer(tracer))
}

// EvaluateQuery evaluates one of the other prepared queries (extraQueries)
// against doc and decodes its result, an object, into out.
func (e *Engine) EvaluateQuery(ctx context.Context, query string, doc any, out any) error {
	pq, ok := e.extra[query]
	if !ok {
		return &Error{Code: "query", Message: fmt.Sprintf("%s is not a prepared query", query)}
	}
	in, err := ParseInput(doc)
	if err != nil {
		return err
	}
	_, err = e.eval(ctx, pq, in, out)
	return err
}

func (e *Engine) eval(ctx context.Context, query rego.PreparedEvalQuery, in *Input, out any, extra ...rego.EvalOption) (json.RawMessage, error) {
	// OPA would start a goroutine per evaluation to watch ctx; a callback
	// registered on ctx cancels the same way without one (and without
	// waking another thread to end it on every turn).
	cancel := topdown.NewCancel()
	stop := context.AfterFunc(ctx, cancel.Cancel)
	defer stop()
	rules := newRuleCache(e.static, in.value)
	defer rules.release()
	var (
		rs  rego.ResultSet
		err error
	)
	if len(extra) == 0 {
		// Spelled out rather than appended to: options passed this way
		// stay on the stack, appended ones cost four allocations a turn.
		rs, err = query.Eval(ctx, rego.EvalParsedInput(in.value), astResult, rego.EvalExternalCancel(cancel),
			rego.EvalVirtualCache(rules), rego.EvalBaseCache(e.base))
	} else {
		rs, err = query.Eval(ctx, append([]rego.EvalOption{rego.EvalParsedInput(in.value), astResult,
			rego.EvalExternalCancel(cancel), rego.EvalVirtualCache(rules), rego.EvalBaseCache(e.base)}, extra...)...)
	}
	if err != nil {
		return nil, &Error{Code: "eval", Message: err.Error()}
	}
	rules.commit()
	if len(rs) == 0 || len(rs[0].Expressions) == 0 {
		return nil, &Error{Code: "undefined", Message: "the decision is undefined"}
	}
	val, ok := rs[0].Expressions[0].Value.(ast.Object)
	if !ok {
		return nil, &Error{Code: "malformed", Message: fmt.Sprintf("the decision is %s, not an object", goTypeName(rs[0].Expressions[0].Value))}
	}
	raw, err := resultJSON(val)
	if err != nil {
		return nil, &Error{Code: "malformed", Message: err.Error()}
	}
	if out != nil {
		if err := decodeResult(val, raw, out); err != nil {
			return raw, &Error{Code: "malformed", Message: err.Error()}
		}
	}
	return raw, nil
}

// goTypeName names v's type as it read when results were Go values, so
// that the message of a malformed decision has not changed.
func goTypeName(v any) string {
	switch v.(type) {
	case ast.Null:
		return "<nil>"
	case ast.Boolean:
		return "bool"
	case ast.Number:
		return "json.Number"
	case ast.String:
		return "string"
	case *ast.Array, ast.Set:
		return "[]interface {}"
	default:
		return fmt.Sprintf("%T", v)
	}
}

// Evaluate parses doc, evaluates the decision and decodes it into out. It
// returns the input and result JSON for the decision record; on error the
// input JSON is still returned when it could be built.
func (e *Engine) Evaluate(ctx context.Context, doc any, out any) (input, result []byte, err error) {
	in, err := ParseInput(doc)
	if err != nil {
		return nil, nil, err
	}
	raw, err := e.Eval(ctx, in, out)
	return in.JSON, raw, err
}

// EvaluateStage1 is Evaluate for the first stage (Stage1Query).
func (e *Engine) EvaluateStage1(ctx context.Context, doc any, out any) (input, result []byte, err error) {
	in, err := ParseInput(doc)
	if err != nil {
		return nil, nil, err
	}
	if e.oneStage {
		raw, err := e.eval(ctx, e.query, in, nil)
		if err != nil {
			return in.JSON, raw, err
		}
		// The decision, asking for the verb stage (its own verbStage, if it
		// has one, comes later and wins).
		body, head := raw[1:], `{"verbStage":true`
		if len(body) > 1 { // not "{}"
			head += ","
		}
		raw = append([]byte(head), body...)
		if out != nil {
			if err := json.Unmarshal(raw, out); err != nil {
				return in.JSON, raw, &Error{Code: "malformed", Message: err.Error()}
			}
		}
		return in.JSON, raw, nil
	}
	raw, err := e.eval(ctx, e.stage1, in, out)
	return in.JSON, raw, err
}

// RuleDoc is what a rule's METADATA says about it.
type RuleDoc struct {
	Rule        string         `json:"rule"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Custom      map[string]any `json:"custom,omitempty"`
}

// RuleDocs indexes the package-scoped METADATA of every module by package
// path in the form denials carry (mcpc.rules.plan["dangling-dependency"]).
func (e *Engine) RuleDocs() map[string]RuleDoc {
	return e.docs
}

// Rules lists the rule packages (mcpc.rules.* and the repository-local
// mcpc.local.rules.*), sorted, whether or not they carry METADATA.
func (e *Engine) Rules() []string { return e.rules }

func rulePackages(b *bundle.Bundle) []string {
	seen := map[string]bool{}
	for _, m := range b.Modules {
		if m.Parsed == nil {
			continue
		}
		pkg := strings.TrimPrefix(m.Parsed.Package.Path.String(), "data.")
		if strings.HasPrefix(pkg, "mcpc.rules.") || strings.HasPrefix(pkg, LocalPackagePrefix+"rules.") {
			seen[pkg] = true
		}
	}
	out := make([]string, 0, len(seen))
	for pkg := range seen {
		out = append(out, pkg)
	}
	sort.Strings(out)
	return out
}

func ruleDocs(b *bundle.Bundle) map[string]RuleDoc {
	out := map[string]RuleDoc{}
	for _, m := range b.Modules {
		if m.Parsed == nil {
			continue
		}
		for _, a := range m.Parsed.Annotations {
			if a.Scope != "package" {
				continue
			}
			rule := strings.TrimPrefix(m.Parsed.Package.Path.String(), "data.")
			out[rule] = RuleDoc{Rule: rule, Title: a.Title, Description: a.Description, Custom: a.Custom}
		}
	}
	return out
}

// inPackages says whether module m is in one of pkgs or below one; every
// module is when pkgs is empty.
func inPackages(m *ast.Module, pkgs []string) bool {
	if len(pkgs) == 0 {
		return true
	}
	path := m.Package.Path.String()
	for _, p := range pkgs {
		if path == p || strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"[") {
			return true
		}
	}
	return false
}
