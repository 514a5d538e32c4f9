package retrieval

import (
	"math"
	"strings"

	"github.com/mcpc/mcpc/internal/indexer"
)

// Similar subjects: the files of past commits whose subjects say what the
// prompt says. A task is rarely the first of its kind: "Move pushover
// onboarding views to hc.integrations" follows "Move email onboarding
// views to hc.integrations", and what the earlier moves changed
// (hc/front/urls.py, hc/urls.py, hc/front/forms.py) is what this one
// changes, though no word of the prompt is in those files. Bug
// localisation has used this for long (BugLocator, Zhou et al. 2012: the
// files fixed for similar earlier reports rank first). It needs no tracker
// key (the ticket lane is its exact case) and knows nothing of a layout,
// so it holds in any repository with a history.

// similarMinSimilarity is the least similarity a past subject must have to
// count. Measured on the seven sets with the lane at weight 0.4 (README,
// "similar subjects"): at 0.5 and 0.4 no set lost, 0.4 lifted excalidraw
// more; at 0.3 subjects sharing one rare word with the prompt counted, and
// DSpace lost 0.012 at R@5, R@10 and R@20 and excalidraw 0.017 at R@5.
const similarMinSimilarity = 0.4

// similarLane scores the files of the past commits whose subjects are like
// the prompt.
//
// A subject's similarity is the geometric mean of two shares, each word
// weighed by its rarity among the history's subjects (IDF): the share of
// the prompt's words the subject holds, and the share of the subject's
// words the prompt holds. Both ways, because a long subject that holds the
// prompt's two words among eight others is about something else ("Ensure
// that password authentication dialog is shown even if only ldap auth
// method is present" for "removed references to X.509 authentication
// method": by the prompt's share alone it lifted auth.interceptor.ts past
// a gold file at the 10th place, DSpace R@10 -0.012).
//
// A file's score is the share of the similar commits' similarity that
// touched it, times the best similarity: the files similar work has in
// common. Parallel work changes parallel files ("Update Pushover
// notification payload to report downtime duration" after the same for
// Signal and Matrix: each commit its own integration's templates), and
// counting each similar commit's files at its full similarity pushed the
// task's own files down (healthchecks R@20 0.786 -> 0.757); what several
// similar commits share (the urls.py every "Move … views" commit edits)
// is what the next one edits too. Sweeping commits (more than
// maxCoChangeFiles files) are no evidence, as for co-change.
func similarLane(prompt string, history []Commit, tickets *TicketKeys) map[string]float64 {
	out := map[string]float64{}
	history = history[:min(len(history), coChangeDepth)]
	if len(history) == 0 {
		return out
	}
	// A ticket key names the work, not its kind: the ticket lane reads it.
	for _, k := range tickets.keys(prompt) {
		prompt = strings.ReplaceAll(prompt, k, " ")
	}
	words := subjectWords(prompt)
	if len(words) == 0 {
		return out
	}
	subjects := make([]map[string]bool, len(history))
	df := map[string]int{}
	for i, c := range history {
		subjects[i] = subjectWords(c.Subject)
		for w := range subjects[i] {
			df[w]++
		}
	}
	n := len(history)
	var promptMass float64
	for w := range words {
		promptMass += idf(n, df[w])
	}
	var total, best float64
	for i, c := range history {
		if len(c.Files) > maxCoChangeFiles {
			continue
		}
		var shared, own float64
		for w := range subjects[i] {
			v := idf(n, df[w])
			own += v
			if words[w] {
				shared += v
			}
		}
		if shared == 0 {
			continue
		}
		sim := math.Sqrt(shared / promptMass * shared / own)
		if sim < similarMinSimilarity {
			continue
		}
		total += sim
		best = max(best, sim)
		for _, f := range c.Files {
			out[f] += sim
		}
	}
	for f, v := range out {
		out[f] = v / total * best
	}
	return out
}

// subjectWords are the distinct terms of a subject or prompt that say
// what it is about: no stopwords, no commit type (a scope stays), no
// numbers (the index's tokeniser drops them: "(#1234)" is no word).
func subjectWords(subject string) map[string]bool {
	out := map[string]bool{}
	for _, t := range indexer.Tokenize(stripConventionalPrefix(subject)) {
		if stopwords[t] || len(t) < 2 {
			continue
		}
		out[t] = true
	}
	return out
}
