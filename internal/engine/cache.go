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
	"maps"
	"slices"
	"strings"
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

// staticRules are the rule documents (complete rules and whole partial
// sets, without arguments) whose value depends on nothing but the bundle
// and a few parts of the input (members: a top-level member, or one member
// of it, input.enforcement.migrationRules), each with what evaluations
// computed: a rule of no member (static) has one value for the Engine's
// lifetime; a rule of some members keeps the values of the last
// memoEntries inputs, by those members' values. The member cache gives an
// unchanged top-level member the same term in every turn, and a term is
// never modified, so the same terms are the same value, compared by
// identity; a part of a member that changed elsewhere (the enforcement
// facts' clock moves every turn, their MigrationRules and contracts do
// not) is a new term of the same value, compared by hash and then by
// value. A member whose value changed is evaluated again.
type staticRules struct {
	byHash map[int][]*staticRule
	// paths are the distinct member paths the memoized rules read; a
	// rule's slots index them, and an evaluation finds each path's term in
	// its input once (ruleCache.member), not once per rule that reads it
	paths []memberPath
}

// maxMemoMembers bounds the members a memoized rule may read; a rule that
// reads more parts than that is kept by their top-level members, and one
// that reads more top-level members is evaluated every time.
const maxMemoMembers = 8

// memoEntries is how many inputs' values a rule of some members keeps.
const memoEntries = 4

type staticRule struct {
	ref     ast.Ref
	members []memberPath // the parts of the input it reads; none: static
	slots   []int        // members' indexes in staticRules.paths
	value   atomic.Pointer[staticValue]

	mu      sync.Mutex
	entries [memoEntries]memoEntry
	next    int // the entry the next value replaces
}

type staticValue struct {
	term      *ast.Term
	undefined bool
}

type memoEntry struct {
	members   [maxMemoMembers]*ast.Term
	term      *ast.Term
	undefined bool
	set       bool
}

// memberPath names a part of the input: a top-level member, or a member
// of one ([enforcement, migrationRules]).
type memberPath []*ast.Term

func (p memberPath) String() string {
	names := make([]string, len(p))
	for i, t := range p {
		names[i] = string(t.Value.(ast.String))
	}
	return strings.Join(names, ".")
}

// find is the term at p in input, nil when absent.
func (p memberPath) find(input ast.Object) *ast.Term {
	var cur *ast.Term
	obj := input
	for _, name := range p {
		if obj == nil {
			return nil
		}
		if cur = obj.Get(name); cur == nil {
			return nil
		}
		obj, _ = cur.Value.(ast.Object)
	}
	return cur
}

// key fills key with the terms of r's members in c's input (nil when
// absent).
func (r *staticRule) key(c *ruleCache, key *[maxMemoMembers]*ast.Term) {
	for i, slot := range r.slots {
		key[i] = c.member(slot)
	}
}

// sameKey: the terms are the same values, the same terms first (the member
// cache's), then by hash (an object's and an array's is kept, not
// computed) and value.
func sameKey(a, b *[maxMemoMembers]*ast.Term) bool {
	for i := range a {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if x == nil || y == nil || x.Value.Hash() != y.Value.Hash() || !x.Equal(y) {
			return false
		}
	}
	return true
}

func (r *staticRule) get(c *ruleCache) (*ast.Term, bool, bool) {
	if len(r.members) == 0 {
		if v := r.value.Load(); v != nil {
			return v.term, v.undefined, true
		}
		return nil, false, false
	}
	var key [maxMemoMembers]*ast.Term
	r.key(c, &key)
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range r.entries {
		if e := &r.entries[i]; e.set && sameKey(&e.members, &key) {
			return e.term, e.undefined, true
		}
	}
	return nil, false, false
}

func (r *staticRule) put(c *ruleCache, value *ast.Term) {
	if len(r.members) == 0 {
		// The first evaluation to finish the rule keeps it; any other
		// computed the same value.
		r.value.CompareAndSwap(nil, &staticValue{term: value, undefined: value == nil})
		return
	}
	var key [maxMemoMembers]*ast.Term
	r.key(c, &key)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.entries[r.next] = memoEntry{members: key, term: value, undefined: value == nil, set: true}
	r.next = (r.next + 1) % memoEntries
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

// inputReads is what a rule reads of the input: some members by path (a
// top-level member's name, or that and one of its members' joined by
// pathSep), or all of it (input whole, input[x], a non-deterministic
// built-in: no input makes such a rule's value the same twice).
type inputReads struct {
	members map[string]bool
	all     bool
}

func (r *inputReads) add(o *inputReads) bool {
	if r.all || o == nil {
		return false
	}
	if o.all {
		r.all = true
		return true
	}
	changed := false
	for m := range o.members {
		if !r.members[m] {
			if r.members == nil {
				r.members = map[string]bool{}
			}
			r.members[m], changed = true, true
		}
	}
	return changed
}

// findStaticRules finds the rule documents of c whose value depends on
// the input only through a few of its top-level members (or not at all):
// what they and every rule or function they may reach read of input, none
// calling a non-deterministic built-in (time, randomness, network). A
// reference with variables into data counts every rule it may reach.
func findStaticRules(c *ast.Compiler) *staticRules {
	var all []*ast.Rule
	for _, m := range c.Modules {
		all = append(all, m.Rules...)
	}
	reads := make(map[*ast.Rule]*inputReads, len(all))
	deps := make(map[*ast.Rule][]*ast.Rule, len(all))
	opts := ast.RulesOptions{IncludeHiddenModules: true}
	for _, r := range all {
		rd := &inputReads{}
		reads[r] = rd
		ast.WalkRefs(r, func(ref ast.Ref) bool {
			head, ok := ref[0].Value.(ast.Var)
			switch {
			case !ok:
			case head.Equal(ast.InputRootDocument.Value):
				if path, ok := readPath(ref); ok {
					rd.add(&inputReads{members: map[string]bool{path: true}})
				} else {
					rd.all = true
				}
			case head.Equal(ast.DefaultRootDocument.Value):
				deps[r] = append(deps[r], c.GetRulesDynamicWithOpts(ref, opts)...)
			default:
				if b, ok := ast.BuiltinMap[ref.String()]; ok && b.Nondeterministic {
					rd.all = true
				}
			}
			return false
		})
	}
	for changed := true; changed; {
		changed = false
		for _, r := range all {
			for _, d := range deps[r] {
				if reads[r].add(reads[d]) {
					changed = true
				}
			}
		}
	}
	s := &staticRules{byHash: map[int][]*staticRule{}}
	slotOf := map[string]int{}
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
		rd := &inputReads{}
		for _, other := range c.GetRulesExact(ref) {
			if len(other.Head.Args) > 0 {
				rd.all = true
			}
			rd.add(reads[other])
		}
		if rd.all {
			continue
		}
		members := memberPaths(rd.members)
		if len(members) > maxMemoMembers {
			members = memberPaths(topMembers(rd.members))
		}
		if len(members) > maxMemoMembers {
			continue
		}
		slots := make([]int, len(members))
		for i, path := range members {
			slot, ok := slotOf[path.String()]
			if !ok {
				slot = len(s.paths)
				slotOf[path.String()] = slot
				s.paths = append(s.paths, path)
			}
			slots[i] = slot
		}
		h := ref.Hash()
		s.byHash[h] = append(s.byHash[h], &staticRule{ref: ref.Copy(), members: members, slots: slots})
	}
	return s
}

// pathSep joins the names of a member path in inputReads.
const pathSep = "\x00"

// readPath is the part of the input ref (input...) reads: its first one or
// two names when they are strings; false when its first is not (input
// whole, input[x]).
func readPath(ref ast.Ref) (string, bool) {
	var names []string
	for _, t := range ref[1:min(len(ref), 3)] {
		s, ok := t.Value.(ast.String)
		if !ok {
			break
		}
		names = append(names, string(s))
	}
	return strings.Join(names, pathSep), len(names) > 0
}

// topMembers are the top-level members of paths.
func topMembers(paths map[string]bool) map[string]bool {
	out := map[string]bool{}
	for p := range paths {
		top, _, _ := strings.Cut(p, pathSep)
		out[top] = true
	}
	return out
}

// memberPaths are paths in order, less those inside another of them (a
// rule that reads input.enforcement whole is kept by all of it).
func memberPaths(paths map[string]bool) []memberPath {
	var out []memberPath
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		top, _, nested := strings.Cut(p, pathSep)
		if nested && paths[top] {
			continue
		}
		var path memberPath
		for _, name := range strings.Split(p, pathSep) {
			path = append(path, ast.StringTerm(name))
		}
		out = append(out, path)
	}
	return out
}

// ruleCache is the topdown.VirtualCache of one evaluation. Inside a `with`
// (a pushed frame) the input or data may be replaced, so static values are
// neither read nor kept there.
type ruleCache struct {
	static *staticRules
	input  ast.Object // the evaluation's input, for the memoized rules' keys
	// terms are the terms of static.paths in input, found when first
	// asked for (looked)
	terms  []*ast.Term
	looked []bool
	frames []map[int][]cacheEntry
	// keys holds copies of the refs put: OPA may reuse a ref's slice after
	// putting it.
	keys []*ast.Term
	// pending are the values of staticRules computed by this evaluation.
	pending []pendingValue
}

type pendingValue struct {
	rule *staticRule
	term *ast.Term
}

// commit keeps the values of static and memoized rules this evaluation
// computed; it is called only when the evaluation succeeded.
func (c *ruleCache) commit() {
	for _, p := range c.pending {
		p.rule.put(c, p.term)
	}
}

type cacheEntry struct {
	ref       ast.Ref
	term      *ast.Term
	undefined bool
}

var ruleCachePool = sync.Pool{New: func() any {
	return &ruleCache{frames: []map[int][]cacheEntry{{}}}
}}

func newRuleCache(static *staticRules, input ast.Value) *ruleCache {
	c := ruleCachePool.Get().(*ruleCache)
	c.static = static
	c.input, _ = input.(ast.Object)
	if static != nil {
		n := len(static.paths)
		c.terms, c.looked = slices.Grow(c.terms[:0], n)[:n], slices.Grow(c.looked[:0], n)[:n]
	}
	return c
}

// member is the term of static.paths[slot] in the evaluation's input.
func (c *ruleCache) member(slot int) *ast.Term {
	if !c.looked[slot] {
		c.looked[slot] = true
		if c.input != nil {
			c.terms[slot] = c.static.paths[slot].find(c.input)
		}
	}
	return c.terms[slot]
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
	clear(c.pending)
	c.pending = c.pending[:0]
	clear(c.terms)
	clear(c.looked)
	c.static, c.input = nil, nil
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
	frame := c.frames[len(c.frames)-1]
	for _, e := range frame[h] {
		if e.ref.Equal(ref) {
			return e.term, e.undefined
		}
	}
	if len(c.frames) == 1 {
		if s := c.static.find(ref, h); s != nil {
			if term, undefined, ok := s.get(c); ok {
				// the evaluation's later reads find it in its frame, without
				// comparing the rule's members again (a rule is read once per
				// iteration of a loop over it)
				c.remember(frame, h, ref, term)
				return term, undefined
			}
		}
	}
	return nil, false
}

func (c *ruleCache) remember(frame map[int][]cacheEntry, h int, ref ast.Ref, value *ast.Term) {
	start := len(c.keys)
	c.keys = append(c.keys, ref...)
	frame[h] = append(frame[h], cacheEntry{ref: c.keys[start:len(c.keys):len(c.keys)], term: value, undefined: value == nil})
}

func (c *ruleCache) Put(ref ast.Ref, value *ast.Term) {
	h := ref.Hash()
	if len(c.frames) == 1 {
		if s := c.static.find(ref, h); s != nil {
			// Kept once the evaluation succeeds (commit): OPA puts a
			// complete rule's first value before it finds another rule
			// body conflicting with it, an error the kept value would hide
			// from every later evaluation.
			c.pending = append(c.pending, pendingValue{rule: s, term: value})
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
	c.remember(frame, h, ref, value)
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
