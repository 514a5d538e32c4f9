package controller

import "slices"

// tagTargets joins a submitted plan with the graph's facts about its
// targets: per custom element tag a change node's targetFile uses
// (input.enforcement.fileTags), those targetFiles, sorted. It is reported
// as input.submissionFacts.aggregates.tagTargets so lib/enforcement need
// not build the tags of every target file and the files of every tag on
// each decision; with targetNodes (the change nodes by targetFile) it says
// which change nodes' files use each tag. Which of those tags have a
// MigrationRule, and what a node that migrates one must cite, stay
// policy's. targetNodes are planAggregates.TargetNodes.
//
// Files rather than node indexes: Rego turns each file's nodes into a set
// once (lib/enforcement _targeting) and joins them per tag with union; a
// list of nodes per tag would be turned into a set element by element,
// which at 2,000 nodes cost more than the walk it replaced.
func tagTargets(targetNodes map[string][]int, fileTags map[string][]string) map[string][]string {
	out := map[string][]string{}
	for file := range targetNodes {
		for _, tag := range fileTags[file] {
			out[tag] = append(out[tag], file)
		}
	}
	for tag, files := range out {
		slices.Sort(files)
		out[tag] = slices.Compact(files)
	}
	return out
}

// addTagTargets sets the submission facts' tagTargets once the
// enforcement facts are gathered (gatherDomain): the plan's facts are
// gathered before the graph is asked about its targets.
func (f *submissionFacts) addTagTargets(fileTags map[string][]string) {
	if f.Aggregates != nil {
		f.Aggregates.TagTargets = tagTargets(f.Aggregates.TargetNodes, fileTags)
	}
}
