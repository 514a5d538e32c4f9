package engine

// A turn's input is mostly what the turn before it had: the envelope, the
// pack, the configuration, the enforcement data and the strategy tables of
// the work do not change between its turns, and the empty facts of the
// verbs not taken are the same in every turn. Converting all of it again was
// most of a read turn's input conversion. The members of the input's
// top-level object are therefore kept by their JSON text: a member whose
// text was converted before is the same value, and its terms are shared
// (OPA never modifies an input's terms; the string table relies on the same).
// The cache is keyed by content, so it needs no invalidation: a changed
// fact is a different text. It is bounded (memberCacheBytes per
// generation, two generations): texts an agent makes up only push others
// out.

import (
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

const (
	// memberCacheLevels is how deep the members are cached: the input's
	// members, and theirs. The enforcement facts change every turn (their
	// clock) while their MigrationRules, contracts and memory records do
	// not: those stay the same terms, and the rules kept by them (cache.go)
	// find their values by identity.
	memberCacheLevels = 2
	// memberCacheBytes is the JSON text one generation keeps.
	memberCacheBytes = 1 << 20
	// maxCachedMember is the longest member text kept (a plan submission
	// of a few hundred nodes fits).
	maxCachedMember = 256 << 10
)

type memberCache struct {
	mu        sync.Mutex
	cur, prev map[string]*ast.Term
	curBytes  int
}

var members = &memberCache{cur: map[string]*ast.Term{}}

func (c *memberCache) get(text string) *ast.Term {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.cur[text]; ok {
		return t
	}
	if t, ok := c.prev[text]; ok {
		c.putLocked(text, t) // still in use: keep it in the current generation
		return t
	}
	return nil
}

func (c *memberCache) put(text string, t *ast.Term) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(text, t)
}

func (c *memberCache) putLocked(text string, t *ast.Term) {
	if c.curBytes+len(text) > memberCacheBytes {
		c.prev, c.cur, c.curBytes = c.cur, map[string]*ast.Term{}, 0
	}
	c.cur[text] = t
	c.curBytes += len(text)
}

// member parses the value of a top-level member: an object or array is
// taken from the cache when its text was converted before, and converted
// from a copy of its text (so that the cached terms do not keep the whole
// document alive), its own members through the cache down to
// memberCacheLevels, and cached when not.
func (p *jsonParser) member() (*ast.Term, error) {
	p.space()
	if p.pos >= len(p.src) || (p.src[p.pos] != '{' && p.src[p.pos] != '[') {
		return p.value()
	}
	end, ok := skipValue(p.src, p.pos)
	if !ok || end-p.pos > maxCachedMember {
		return p.value() // the parser reports what is wrong
	}
	text := p.src[p.pos:end]
	if t := members.get(text); t != nil {
		p.pos = end
		return t, nil
	}
	text = strings.Clone(text)
	v, err := parseJSON(text, p.cacheLevels-1)
	if err != nil {
		return p.value()
	}
	t := ast.NewTerm(v)
	members.put(text, t)
	p.pos = end
	return t, nil
}

// skipValue returns the end of the object or array starting at s[i], by
// matching brackets outside strings; ok is false when it does not end. It
// does not validate: the text is parsed before it is cached.
func skipValue(s string, i int) (end int, ok bool) {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			if i >= len(s) {
				return 0, false
			}
		}
	}
	return 0, false
}
