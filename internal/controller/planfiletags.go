package controller

import "slices"

// fileTagNodes joins a submitted plan with the graph's facts about its
// targets: per custom element tag a change node's targetFile uses
// (input.enforcement.fileTags), the indexes of the change nodes that
// change such a file, ascending, each once. It is reported as
// input.submissionFacts.aggregates.fileTagNodes so lib/enforcement need not
// walk the files by tag on every decision; which of those tags have a
// MigrationRule, and what a node that migrates one must cite, stay policy's.
// targetNodes are planAggregates.TargetNodes.
func fileTagNodes(targetNodes map[string][]int, fileTags map[string][]string) map[string][]int {
	out := map[string][]int{}
	for file, nodes := range targetNodes {
		for _, tag := range fileTags[file] {
			out[tag] = append(out[tag], nodes...)
		}
	}
	for tag, nodes := range out {
		slices.Sort(nodes)
		out[tag] = slices.Compact(nodes)
	}
	return out
}

// addFileTagNodes sets the submission facts' fileTagNodes once the
// enforcement facts are gathered (gatherDomain): the plan's facts are
// gathered before the graph is asked about its targets.
func (f *submissionFacts) addFileTagNodes(fileTags map[string][]string) {
	if f.Aggregates != nil {
		f.Aggregates.FileTagNodes = fileTagNodes(f.Aggregates.TargetNodes, fileTags)
	}
}
