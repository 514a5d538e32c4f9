package controller

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpc/mcpc/schemas"
)

// MacroConstraintFacts is implemented by a DomainFacts that can also say
// which MacroConstraints a set of tags triggers. A plan may add a
// constraint's tag and a tag it forbids to a page that has neither: the
// target files' tags then do not find the constraint, the tags the change
// nodes name do (issue 17).
type MacroConstraintFacts interface {
	MacroConstraints(ctx context.Context, tags []string) ([]map[string]any, error)
}

// namedConstraints are the MacroConstraints of the tags a plan names, read
// once per turn.
type namedConstraints struct {
	tags []string
	list []map[string]any
	err  error
}

// maxNamedTags bounds the tags whose constraints one plan looks up.
const maxNamedTags = 64

// planNamedTags are the tags a plan's change nodes name, as policy reads
// them (mcpc.lib.enforcement.node_tags: the lowered editIntent and
// targetSymbols), plus their componentMapping's fromTag and toTag: sorted,
// distinct, at most maxNamedTags; none without a pattern (nil).
func planNamedTags(sub map[string]any, pattern *regexp.Regexp) []string {
	if pattern == nil {
		return []string{}
	}
	nodes, _ := sub["nodes"].([]any)
	seen := map[string]bool{}
	for _, n := range nodes {
		m, _ := n.(map[string]any)
		if m["kind"] != "change" {
			continue
		}
		texts := []string{}
		if s, ok := m["editIntent"].(string); ok {
			texts = append(texts, s)
		}
		syms, _ := m["targetSymbols"].([]any)
		for _, s := range syms {
			if s, ok := s.(string); ok {
				texts = append(texts, s)
			}
		}
		for _, tag := range pattern.FindAllString(strings.ToLower(strings.Join(texts, " ")), -1) {
			seen[tag] = true
		}
		mapping, _ := m["componentMapping"].(map[string]any)
		for _, k := range []string{"fromTag", "toTag"} {
			if s, ok := mapping[k].(string); ok && pattern.MatchString(s) {
				seen[strings.ToLower(s)] = true
			}
		}
		if len(seen) > maxNamedTags {
			break
		}
	}
	tags := make([]string, 0, len(seen))
	for tag := range seen {
		tags = append(tags, tag)
	}
	slices.Sort(tags)
	return tags[:min(len(tags), maxNamedTags)]
}

// readNamedConstraints asks the graph for the MacroConstraints of tags.
func (c *Controller) readNamedConstraints(ctx context.Context, tags []string) *namedConstraints {
	n := &namedConstraints{tags: tags}
	if src, ok := c.domain.(MacroConstraintFacts); ok && len(tags) > 0 {
		n.list, n.err = src.MacroConstraints(ctx, tags)
	}
	return n
}

// prefetchNamedConstraints reads, outside the lock, the MacroConstraints of
// the tags a submitted plan names.
func (c *Controller) prefetchNamedConstraints(ctx context.Context, t *turn) {
	if m, ok := t.args["planGraph"].(map[string]any); ok {
		t.named = c.readNamedConstraints(ctx, planNamedTags(m, c.tagPattern()))
	}
}

// addNamedConstraints adds to input.enforcement the MacroConstraints the
// submitted plan's named tags trigger that its files did not, reusing the
// prefetched ones when the plan names the same tags.
func (c *Controller) addNamedConstraints(ctx context.Context, t *turn) {
	e := &t.in.Enforcement
	if c.domain == nil {
		return
	}
	tags := planNamedTags(t.in.Submission, c.tagPattern())
	n := t.named
	if n == nil || !slices.Equal(n.tags, tags) {
		n = c.readNamedConstraints(ctx, tags)
	}
	if n.err != nil {
		c.log.Warn().Err(n.err).Msg("graph macro constraints failed")
		e.Problems = append(e.Problems, domainProblem{Source: "graph", Problems: []schemas.Problem{{Message: "the knowledge graph did not answer"}}})
		return
	}
	e.MacroConstraints = mergeConstraints(e.MacroConstraints, n.list)
}

// mergeConstraints appends to have the constraints of more whose id it
// does not hold yet, in a new slice (have may be the gathered facts').
func mergeConstraints(have, more []map[string]any) []map[string]any {
	have = slices.Clone(have)
	ids := map[any]bool{}
	for _, m := range have {
		ids[m["id"]] = true
	}
	for _, m := range more {
		if !ids[m["id"]] {
			ids[m["id"]] = true
			have = append(have, m)
		}
	}
	return have
}
