package engine

// This file holds the caches evaluation uses in place of OPA's per-query
// defaults. OPA builds, for every query, a tree of hash maps for the rule
// values it computes (the virtual cache) and another for the data it reads
// (the base cache), and evaluates again every rule that reads only the
// bundle's data: the tables, the message formats, the priorities. For a read
// turn that was a third of its decision's allocations. Three things change
// here, none of them what a rule decides:
//
//   - the data never changes while an Engine lives (a new policy is a new
//     Engine), so base documents are read from its value form directly;
//   - a rule whose value cannot depend on the input (it reads neither input
//     nor a rule that does, and calls no non-deterministic built-in) has the
//     same value in every evaluation: the first evaluation that computes it
//     keeps it for the Engine's lifetime (staticRules);
//   - the values of the other rules live in a flat table reused between
//     evaluations rather than in a tree of maps built per query.

import (
	"sync"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// dataCache is a topdown.BaseCache over the bundle's data in value form:
// every base document is found in it, nothing is ever put. The store is
// never written, so a read is the same in every evaluation.
type dataCache struct {
	root ast.Value
}

func (c dataCache) Get(ref ast.Ref) ast.Value {
	if len(ref) == 0 || c.root == nil {
		return nil
	}
	v, err := c.root.Find(ref[1:])
	if err != nil {
		return nil
	}
	return v
}

// Put is a no-op: what a store read returns is already in root (a miss is
// data that does not exist, read again from the store when asked for).
func (dataCache) Put(ast.Ref, ast.Value) {}

// staticRules are the documents (complete rules and whole partial sets,
// without arguments) whose value does not depend on the input, each with
// the value the first evaluation computed.
type staticRules struct {
	byHash map[int][]*staticRule
}

type staticRule struct {
	ref   ast.Ref
	value atomic.Pointer[staticValue]
}

type staticValue struct {
	term      *ast.Term
	undefined bool
}

func (s *staticRules) find(ref ast.Ref, hash int) *staticRule {
	if s == nil {
		return nil
	}
	for _, r := range s.byHash[hash] {
		if r.ref.Equal(ref) {
			return r
		}
	}
	return nil
}

// findStaticRules finds the rule documents of c that are the same in every
// evaluation: neither they nor any rule or function they may reach read
// input or call a non-deterministic built-in (time, randomness, network).
// A reference with variables into data counts every rule it may reach.
func findStaticRules(c *ast.Compiler) *staticRules {
	var all []*ast.Rule
	for _, m := range c.Modules {
		all = append(all, m.Rules...)
	}
	dynamic := make(map[*ast.Rule]bool, len(all))
	deps := make(map[*ast.Rule][]*ast.Rule, len(all))
	opts := ast.RulesOptions{IncludeHiddenModules: true}
	for _, r := range all {
		ast.WalkRefs(r, func(ref ast.Ref) bool {
			head, ok := ref[0].Value.(ast.Var)
			switch {
			case !ok:
			case head.Equal(ast.InputRootDocument.Value):
				dynamic[r] = true
			case head.Equal(ast.DefaultRootDocument.Value):
				deps[r] = append(deps[r], c.GetRulesDynamicWithOpts(ref, opts)...)
			default:
				if b, ok := ast.BuiltinMap[ref.String()]; ok && b.Nondeterministic {
					dynamic[r] = true
				}
			}
			return false
		})
	}
	for changed := true; changed; {
		changed = false
		for _, r := range all {
			if dynamic[r] {
				continue
			}
			for _, d := range deps[r] {
				if dynamic[d] {
					dynamic[r], changed = true, true
					break
				}
			}
		}
	}
	s := &staticRules{byHash: map[int][]*staticRule{}}
	seen := map[string]bool{}
	for _, r := range all {
		if len(r.Head.Args) > 0 {
			continue
		}
		ref := r.Ref()
		if !ref.IsGround() || seen[ref.String()] {
			continue
		}
		seen[ref.String()] = true
		static := true
		for _, other := range c.GetRulesExact(ref) {
			if dynamic[other] || len(other.Head.Args) > 0 {
				static = false
			}
		}
		if static {
			h := ref.Hash()
			s.byHash[h] = append(s.byHash[h], &staticRule{ref: ref.Copy()})
		}
	}
	return s
}

// ruleCache is the topdown.VirtualCache of one evaluation. Inside a `with`
// (a pushed frame) the input or data may be replaced, so static values are
// neither read nor kept there.
type ruleCache struct {
	static *staticRules
	frames []map[int][]cacheEntry
	// keys holds copies of the refs put: OPA may reuse a ref's slice after
	// putting it.
	keys []*ast.Term
}

type cacheEntry struct {
	ref       ast.Ref
	term      *ast.Term
	undefined bool
}

var ruleCachePool = sync.Pool{New: func() any {
	return &ruleCache{frames: []map[int][]cacheEntry{{}}}
}}

func newRuleCache(static *staticRules) *ruleCache {
	c := ruleCachePool.Get().(*ruleCache)
	c.static = static
	return c
}

// release empties c, so that it pins no term of this evaluation, and pools
// it unless it grew unusually large.
func (c *ruleCache) release() {
	top := c.frames[0]
	large := len(top) > 1<<12 || cap(c.keys) > 1<<14
	for k, entries := range top {
		clear(entries)
		top[k] = entries[:0]
	}
	if len(top) > 1<<10 {
		clear(top)
	}
	clear(c.frames[1:])
	c.frames = c.frames[:1]
	clear(c.keys[:cap(c.keys)])
	c.keys = c.keys[:0]
	c.static = nil
	if !large {
		ruleCachePool.Put(c)
	}
}

func (c *ruleCache) Push() { c.frames = append(c.frames, map[int][]cacheEntry{}) }

func (c *ruleCache) Pop() {
	c.frames[len(c.frames)-1] = nil
	c.frames = c.frames[:len(c.frames)-1]
}

func (c *ruleCache) Get(ref ast.Ref) (*ast.Term, bool) {
	h := ref.Hash()
	if len(c.frames) == 1 {
		if s := c.static.find(ref, h); s != nil {
			if v := s.value.Load(); v != nil {
				return v.term, v.undefined
			}
		}
	}
	for _, e := range c.frames[len(c.frames)-1][h] {
		if e.ref.Equal(ref) {
			return e.term, e.undefined
		}
	}
	return nil, false
}

func (c *ruleCache) Put(ref ast.Ref, value *ast.Term) {
	h := ref.Hash()
	if len(c.frames) == 1 {
		if s := c.static.find(ref, h); s != nil {
			// The first evaluation to finish the rule keeps it; any other
			// computed the same value.
			s.value.CompareAndSwap(nil, &staticValue{term: value, undefined: value == nil})
			return
		}
	}
	frame := c.frames[len(c.frames)-1]
	entries := frame[h]
	for i := range entries {
		if entries[i].ref.Equal(ref) {
			entries[i].term, entries[i].undefined = value, value == nil
			return
		}
	}
	start := len(c.keys)
	c.keys = append(c.keys, ref...)
	frame[h] = append(entries, cacheEntry{ref: c.keys[start:len(c.keys):len(c.keys)], term: value, undefined: value == nil})
}

// Keys lists the refs of the current frame that have a value (OPA's
// tracer snapshots them).
func (c *ruleCache) Keys() []ast.Ref {
	var out []ast.Ref
	for _, entries := range c.frames[len(c.frames)-1] {
		for _, e := range entries {
			if e.term != nil {
				out = append(out, e.ref)
			}
		}
	}
	return out
}

var (
	_ topdown.VirtualCache = (*ruleCache)(nil)
	_ topdown.BaseCache    = dataCache{}
)
