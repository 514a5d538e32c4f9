package controller

import (
	"encoding/json"
	"regexp"
	"sync"

	"github.com/mcpc/mcpc/policies"
)

// The custom element tag pattern is policy data (policies/data/tags.json,
// data.mcpc.customElementTag.pattern): mcpc.lib.enforcement matches change
// nodes' text with it, and Go finds with the same pattern the tags it
// reports as facts (nodeTags, namedTags, tagNodes) and looks up the
// MacroConstraints of. Go reads it from the loaded policy, so a bundle that
// changes it is followed by both.

// embeddedTagPattern is the pattern of the policies compiled into the
// binary, for the facts of a plan built without a controller (benchmarks).
var embeddedTagPattern = sync.OnceValue(func() *regexp.Regexp {
	raw, err := policies.FS.ReadFile("data/tags.json")
	if err != nil {
		panic("policies/data/tags.json: " + err.Error())
	}
	var doc struct {
		Mcpc struct {
			CustomElementTag struct {
				Pattern string `json:"pattern"`
			} `json:"customElementTag"`
		} `json:"mcpc"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		panic("policies/data/tags.json: " + err.Error())
	}
	return regexp.MustCompile(doc.Mcpc.CustomElementTag.Pattern)
})

// tagPatternOf is the pattern a policy's data holds, nil when it holds
// none or one Go cannot compile: Go then reports no tag facts, and policy
// matches (or fails closed on) its own pattern.
func tagPatternOf(data func(path ...string) any) *regexp.Regexp {
	pattern, ok := data("data", "mcpc", "customElementTag", "pattern").(string)
	if !ok {
		return nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil
	}
	return re
}

// tagPattern is the loaded policy's pattern, compiled again only when the
// policy changes.
func (c *Controller) tagPattern() *regexp.Regexp {
	c.tagMu.Lock()
	defer c.tagMu.Unlock()
	if v := c.engine.Version(); v != c.tagVersion || !c.tagCompiled {
		c.tagRe, c.tagVersion, c.tagCompiled = tagPatternOf(c.engine.Data), v, true
	}
	return c.tagRe
}
