package retrieval

import (
	"path"
	"regexp"
	"strings"

	"github.com/mcpc/mcpc/internal/indexer"
)

// Side lanes are the retrieval lanes whose evidence lives outside the code
// index (seed 000 §4 step 6): they become Query.Boost entries.
//   - policy: templates that use a custom element the task names (an
//     adp-alert migration needs every <adp-alert> usage: the inventory a
//     MigrationRule applies to, seed 000 §11.1);
//   - artifact: files an attachment or the prompt names by path or file name;
//   - ticket, recent, similar: files of past commits, by the prompt's
//     ticket key, by how recent, by how like the prompt their subjects are;
//   - memory: files under the domain anchors of the memory records policy
//     counts (the controller asks lib/memory which of .ai/memory/records.json).
type SideInputs struct {
	Prompt      string
	Lexemes     []string
	Attachments []string // captions and refs of the work's attachments
	// MemoryAnchors are domain anchor folders of enforced memories.
	MemoryAnchors []string
	// History is the workspace's latest commits, newest first (ReadHistory):
	// the ticket, recent and similar lanes.
	History []Commit
	// Tickets reads the prompt's ticket keys (connectors.jira.keyPattern);
	// nil is the default pattern.
	Tickets *TicketKeys
}

var (
	customTag = regexp.MustCompile(`\b[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b`)
	fileName  = regexp.MustCompile(`[\w./-]+\.[A-Za-z]{1,5}\b`)
)

// SideLanes computes the side lanes' boosts for ix.
func SideLanes(ix *indexer.Index, in SideInputs) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	text := strings.ToLower(in.Prompt + " " + strings.Join(in.Lexemes, " "))
	tags := map[string]bool{}
	for _, t := range customTag.FindAllString(text, -1) {
		tags[t] = true
	}
	if len(tags) > 0 {
		policy := map[string]float64{}
		for _, u := range ix.Usages("") {
			if tags[u.Tag] {
				policy[u.File] = 1
			}
		}
		if len(policy) > 0 {
			out["policy"] = policy
		}
	}
	named := map[string]bool{}
	for _, s := range append([]string{in.Prompt}, in.Attachments...) {
		for _, n := range fileName.FindAllString(s, -1) {
			named[strings.TrimPrefix(n, "./")] = true
		}
	}
	if len(named) > 0 {
		artifact := map[string]float64{}
		for _, f := range ix.Files() {
			if named[f] || named[path.Base(f)] {
				artifact[f] = 1
			}
		}
		if len(artifact) > 0 {
			out["artifact"] = artifact
		}
	}
	// The similar and analogue lanes read the same similar commits.
	sims, words := similarCommits(in.Prompt, in.History, in.Tickets)
	d := derive(ix)
	for lane, files := range map[string]map[string]float64{
		"ticket":   ticketLane(in.Prompt, in.History, in.Tickets),
		"recent":   d.withTestSubjects(recentLane(in.History)),
		"similar":  similarFiles(in.History, sims),
		"analogue": analogueFiles(in.Prompt, in.History, sims, words, ix.HasFile, d.kinFiles),
	} {
		if len(files) > 0 {
			out[lane] = files
		}
	}
	if len(in.MemoryAnchors) > 0 {
		memory := map[string]float64{}
		for _, f := range ix.Files() {
			for _, a := range in.MemoryAnchors {
				if a != "" && (f == a || strings.HasPrefix(f, strings.TrimSuffix(a, "/")+"/")) {
					memory[f] = 0.5 // a hint about the area, weaker than a named file
				}
			}
		}
		if len(memory) > 0 {
			out["memory"] = memory
		}
	}
	return out
}
