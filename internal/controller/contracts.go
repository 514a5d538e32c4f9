package controller

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpc/mcpc/internal/graph"
	"github.com/mcpc/mcpc/internal/lexeme"
	"github.com/mcpc/mcpc/internal/patch"
	"github.com/mcpc/mcpc/schemas"
)

// ComponentContracts reads what the knowledge graph knows of design-system
// components (seed 000 section 11): the contracts components.d.ts declares
// and the migration rules between tags. The app implements it on the graph
// (internal/graph); the controller only turns it into facts and codemod
// params, and policy decides what a contract violation means.
type ComponentContracts interface {
	// Contracts are the contracts of those of tags that have one.
	Contracts(ctx context.Context, tags []string) (map[string]ComponentContract, error)
	// MigrationRule is fromTag's approved migration rule.
	MigrationRule(ctx context.Context, fromTag string) (patch.MigrationRule, bool, error)
}

// ComponentContract is a component's contract as policy sees it.
type ComponentContract struct {
	Props []graph.ContractProp `json:"props"`
	// Events are the custom events the component emits: an event binding
	// (name) listens to one.
	Events []string `json:"events"`
}

// contractFacts and elementFact are input.patch.contracts' and
// input.patch.elements' entries.
type (
	contractFacts = ComponentContract
	elementFact   = patch.Element
)

// maxContractTags bounds the distinct custom tags of one patched file whose
// contracts are read.
const maxContractTags = 200

// ruleLookupDeadline bounds one migration rule lookup of a codemod: the
// codemod's own deadline does not reach into the lookup, which has no ctx.
const ruleLookupDeadline = time.Second

// useContracts keeps cc and lets rewrite_template_tag take a tag's
// propMappings from its approved MigrationRule when a request gives none.
func (c *Controller) useContracts(cc ComponentContracts) {
	if cc == nil {
		return
	}
	c.contracts.reader = cc
	c.codemods = c.codemods.WithRules(func(fromTag string) (patch.MigrationRule, bool) {
		ctx, cancel := context.WithTimeout(context.Background(), ruleLookupDeadline)
		defer cancel()
		rule, ok, err := cc.MigrationRule(ctx, fromTag)
		if err != nil {
			// The codemod then runs without mappings, and the contract
			// check refuses what it leaves behind.
			c.log.Warn().Err(err).Str("tag", fromTag).Msg("migration rule lookup failed")
			return patch.MigrationRule{}, false
		}
		return rule, ok
	})
}

// gatherRecipeContractFacts does the same for replace_lexeme_in_file's
// result on content, the target's current content, when the target is one
// the work may see: a pack file or one it read.
func (c *Controller) gatherRecipeContractFacts(ctx context.Context, t *turn, file string, content []byte) {
	if _, read := t.in.Reads[file]; !read && !slices.Contains(t.in.Pack.Files, file) {
		return
	}
	_, lex, replacement := lexemeParams(t)
	if after, n := lexeme.Replace(string(content), lex, replacement); n > 0 {
		c.gatherContractFacts(ctx, &t.in.Patch, file, string(content), after)
	}
}

// gatherContractFacts reports into facts the custom elements with a
// contract that a patch's result afterContent introduces or changes in file, and
// their contracts. It runs only after a dry run that applied, i.e. on a
// file the work may see (patchSource): the before content is the agent's to
// know, and the facts name nothing of any other file.
func (c *Controller) gatherContractFacts(ctx context.Context, facts *patchFacts, file, beforeContent, afterContent string) {
	if c.contracts.reader == nil {
		return
	}
	// The same deadline as the edits: a template built to be slow to parse
	// costs the server no more than the patch itself may.
	ctx, cancel := context.WithTimeout(ctx, patchDeadline)
	defer cancel()
	tags := patch.CustomTags(afterContent)
	if len(tags) == 0 {
		return
	}
	if len(tags) > maxContractTags {
		// Checking only some would let a patch hide an element behind
		// hundreds of others; no real template has this many.
		c.contractProblem(facts, fmt.Errorf("the file names %d distinct custom elements, more than the %d whose contracts are checked", len(tags), maxContractTags))
		return
	}
	slices.Sort(tags)
	contracts, err := c.contracts.reader.Contracts(ctx, tags)
	if err != nil {
		c.contractProblem(facts, err)
		return
	}
	if len(contracts) == 0 {
		return
	}
	want := map[string]bool{}
	for tag := range contracts {
		want[tag] = true
	}
	after, err := c.contracts.elements(ctx, file, afterContent, want)
	if err != nil {
		c.contractProblem(facts, err)
		return
	}
	before, err := c.contracts.elements(ctx, file, beforeContent, want)
	if err != nil {
		c.contractProblem(facts, err)
		return
	}
	for _, el := range patch.ChangedElements(before, after) {
		facts.Elements = append(facts.Elements, el)
		cc := contracts[el.Tag]
		cc.Props, cc.Events = orEmpty(cc.Props), orEmpty(cc.Events)
		facts.Contracts[el.Tag] = cc
	}
}

// contractChecker is the contract reader and the elements of the contents
// it parsed last: one patch's result is the next one's before, so a run of
// edits to a large template parses each content once.
type contractChecker struct {
	reader ComponentContracts
	mu     sync.Mutex
	parsed map[string][]patch.Element // file, tags and content hash: elements
}

// maxParsedContents bounds the cache; it is emptied when full.
const maxParsedContents = 64

func (cc *contractChecker) elements(ctx context.Context, file, content string, want map[string]bool) ([]patch.Element, error) {
	tags := slices.Sorted(maps.Keys(want))
	key := file + "\x00" + strings.Join(tags, ",") + "\x00" + sha256Hex([]byte(content))
	cc.mu.Lock()
	els, ok := cc.parsed[key]
	cc.mu.Unlock()
	if ok {
		return els, nil
	}
	els, err := patch.TemplateElements(ctx, file, content, want)
	if err != nil {
		return nil, err
	}
	cc.mu.Lock()
	if cc.parsed == nil || len(cc.parsed) >= maxParsedContents {
		cc.parsed = map[string][]patch.Element{}
	}
	cc.parsed[key] = els
	cc.mu.Unlock()
	return els, nil
}

// contractProblem fails the patch closed when its contracts could not be
// checked: a patch problem, which patch-applicable refuses.
func (c *Controller) contractProblem(facts *patchFacts, err error) {
	c.log.Warn().Err(err).Msg("component contract facts")
	p := schemas.Problem{Path: "args.targetFile", Message: "the component contracts could not be checked: " + err.Error()}
	if errors.Is(err, context.DeadlineExceeded) {
		p.Kind = patch.KindDeadline
	}
	facts.Applicable = false
	facts.Problems = append(facts.Problems, p)
}
