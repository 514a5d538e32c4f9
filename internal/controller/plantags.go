package controller

import (
	"regexp"
	"sort"
	"strings"
)

// changeNodeTags reports (with pattern, policy's _tag_pattern), per node of the submission (in node order), the
// tags a change node names in its lowered editIntent and targetSymbols (the
// strings among them), and all those tags together, sorted. A node that is
// not a change node has null. A tag never holds a space, so the tags of
// each string are the tags of the whole text Rego would match. Without a
// pattern (nil) it reports nothing: policy finds the tags itself.
func changeNodeTags(submission map[string]any, pattern *regexp.Regexp) (perNode [][]string, named []string) {
	if pattern == nil {
		return nil, nil
	}
	nodes, _ := submission["nodes"].([]any)
	perNode = make([][]string, len(nodes))
	all := map[string]bool{}
	for i, n := range nodes {
		m, _ := n.(map[string]any)
		if kind, _ := m["kind"].(string); kind != "change" {
			continue
		}
		set := map[string]bool{}
		add := func(v any) {
			if s, ok := v.(string); ok {
				for _, tag := range pattern.FindAllString(strings.ToLower(s), -1) {
					set[tag] = true
				}
			}
		}
		add(m["editIntent"])
		switch symbols := m["targetSymbols"].(type) {
		case []any:
			for _, s := range symbols {
				add(s)
			}
		case map[string]any: // Rego's `some symbol in` walks an object's values
			for _, s := range symbols {
				add(s)
			}
		}
		tags := make([]string, 0, len(set))
		for tag := range set {
			tags = append(tags, tag)
			all[tag] = true
		}
		sort.Strings(tags)
		perNode[i] = tags
	}
	named = make([]string, 0, len(all))
	for tag := range all {
		named = append(named, tag)
	}
	sort.Strings(named)
	return perNode, named
}
