package retrieval

import (
	"math"
	"path"
	"slices"
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
	sims, _ := similarCommits(prompt, history, tickets)
	return similarFiles(history, sims)
}

// similarFiles is the similar lane over the commits' similarities.
func similarFiles(history []Commit, sims []float64) map[string]float64 {
	out := map[string]float64{}
	var total, best float64
	for i, sim := range sims {
		if sim == 0 {
			continue
		}
		total += sim
		best = max(best, sim)
		for _, f := range history[i].Files {
			out[f] += sim
		}
	}
	for f, v := range out {
		out[f] = v / total * best
	}
	return out
}

// similarCommits is each of the latest commits' similarity to the prompt
// (0 below similarMinSimilarity, or for a sweep), and the prompt's words.
func similarCommits(prompt string, history []Commit, tickets *TicketKeys) ([]float64, map[string]bool) {
	history = history[:min(len(history), coChangeDepth)]
	if len(history) == 0 {
		return nil, nil
	}
	// A ticket key names the work, not its kind: the ticket lane reads it.
	for _, k := range tickets.keys(prompt) {
		prompt = strings.ReplaceAll(prompt, k, " ")
	}
	words := subjectWords(prompt)
	if len(words) == 0 {
		return nil, nil
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
	sims := make([]float64, len(history))
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
		if sim := math.Sqrt(shared / promptMass * shared / own); sim >= similarMinSimilarity {
			sims[i] = sim
		}
	}
	return sims, words
}

// analogueLane gives the files that stand to this task as a similar
// commit's files stood to it: "Move apprise onboarding views to
// hc.integrations" after "Move email onboarding views to hc.integrations",
// which changed hc/integrations/email/urls.py, wants
// hc/integrations/apprise/urls.py. A similar commit names its own
// instance of the work (email) where the prompt names another (apprise),
// and where a folder or a file name part of its files is that word, the
// path with the prompt's word in its place is the same file for this
// task, if the tree has it. Parallel work (one integration, locale or
// handler after another) is the commonest kind of similar work, and the
// similar lane lifts what the commits share, not what each did for its
// own instance. A file scores the best similarity of the commits that
// lead to it.
func analogueLane(prompt string, history []Commit, tickets *TicketKeys, has func(string) bool, kin kinFunc) map[string]float64 {
	sims, words := similarCommits(prompt, history, tickets)
	return analogueFiles(prompt, history, sims, words, has, kin)
}

// kinFunc finds the files of the tree that are named for one of ours as
// file is named for their word (kinFiles); nil finds none.
// The second result is each one's share of the commit's similarity.
type kinFunc func(file string, their map[string]bool, ours []string) ([]string, float64)

// analogueFiles is the analogue lane over the commits' similarities to
// the prompt, whose words are words.
//
// Where the tree has no file of the rebuilt name, the instance's files
// named the same way stand in (kin): "Update Zulip notification payload
// to report downtime duration" changed zulip/templates/zulip_content.html;
// Matrix has no matrix_content.html, its payload is
// matrix/templates/matrix_description.html and
// matrix_description_formatted.html, and Pushover's, under po/, is
// pushover_message.html and pushover_title.html. A file named for the
// instance the way theirs was, of the same kind in the same place, is one
// of the files this task changes at most: the stand-ins share the
// commit's similarity (half of it for a single one, an exact name not
// found); the file of the same name in the instance's folder (po/urls.py
// for email/urls.py) is the commit's file for this instance and gets all
// of it. Measured on the eight sets (2026-12-03): healthchecks R@5 0.677
// -> 0.702, R@10 0.765 -> 0.781, R@20 0.851 -> 0.855 (the Matrix
// payload's two templates 13th and 10th -> 5th and 4th; po/views.py for
// "Move pushover onboarding views" 28th -> 4th, by email/views.py), and
// with the instance folder's file at the whole similarity 0.706, 0.785,
// 0.859 (po/urls.py 39th -> 5th); no other set moved a row.
func analogueFiles(prompt string, history []Commit, sims []float64, words map[string]bool, has func(string) bool, kin kinFunc) map[string]float64 {
	out := map[string]float64{}
	if len(sims) == 0 {
		return out
	}
	// The prompt's words as written, lower-cased, by their term: a path
	// is rebuilt with the word, not its stem.
	spelled := map[string][]string{}
	for _, w := range wordRe.FindAllString(prompt, -1) {
		lw := strings.ToLower(w)
		if ts := indexer.Tokenize(lw); len(ts) == 1 && words[ts[0]] && !slices.Contains(spelled[ts[0]], lw) {
			spelled[ts[0]] = append(spelled[ts[0]], lw)
		}
	}
	for i, sim := range sims {
		if sim == 0 {
			continue
		}
		// An analogy holds between subjects that differ in one word each:
		// "views" for "transport" as well as "matrix" for "rocketchat"
		// rebuilt matrix/transport.py for "Move rocketchat transport to
		// hc.integrations" from a "Move matrix views …" commit.
		theirs := subjectWords(history[i].Subject)
		var own, ours []string // the subject's words the prompt lacks, and the prompt's the subject lacks
		for t := range theirs {
			if !words[t] {
				own = append(own, t)
			}
		}
		for t := range words {
			if !theirs[t] {
				ours = append(ours, t)
			}
		}
		if len(own) != 1 || len(ours) != 1 || len(spelled[ours[0]]) == 0 {
			continue
		}
		ours = spelled[ours[0]]
		// Their word as the subject spells it: a path part is the word
		// itself ("signal/", "signal_form.html"), not a word of its stem
		// (signals.py).
		their := map[string]bool{}
		for _, w := range wordRe.FindAllString(history[i].Subject, -1) {
			if lw := strings.ToLower(w); slices.Equal(indexer.Tokenize(lw), own) {
				their[lw] = true
			}
		}
		for _, f := range history[i].Files {
			found := false
			for _, a := range analogues(f, their, ours) {
				if has(a) {
					out[a] = max(out[a], sim)
					found = true
				}
			}
			if found || kin == nil {
				continue
			}
			// No file of the same name for this instance: its files named
			// the same way are (see kinFiles), one of them at most.
			cands, share := kin(f, their, ours)
			for _, c := range cands {
				out[c] = max(out[c], sim*share)
			}
		}
	}
	return out
}

// analogues rebuilds file with the path parts that are their word (as
// the similar subject spells it, lower-cased) replaced by each of ours: a
// folder (email/), a part of the file name between '_', '-' or '.'
// (email_form.html), or all of them at once
// (signal/templates/signal_description.html for matrix is
// matrix/templates/matrix_description.html).
func analogues(file string, their map[string]bool, ours []string) []string {
	isTheirs := func(part string) bool { return their[strings.ToLower(part)] }
	type part struct{ seg, start, end int } // a piece segs[seg][start:end]
	segs := strings.Split(file, "/")
	var parts []part
	for k, seg := range segs {
		if k < len(segs)-1 {
			if isTheirs(seg) {
				parts = append(parts, part{k, 0, len(seg)})
			}
			continue
		}
		start := 0
		for i := 0; i <= len(seg); i++ {
			if i < len(seg) && !strings.ContainsRune("_-.", rune(seg[i])) {
				continue
			}
			if i > start && isTheirs(seg[start:i]) {
				parts = append(parts, part{k, start, i})
			}
			start = i + 1
		}
	}
	if len(parts) == 0 {
		return nil
	}
	// rebuild replaces the pieces in use (by their index in parts) with w.
	rebuild := func(use func(int) bool, w string) string {
		out := slices.Clone(segs)
		for j := len(parts) - 1; j >= 0; j-- { // right to left: earlier offsets hold
			if p := parts[j]; use(j) {
				out[p.seg] = out[p.seg][:p.start] + w + out[p.seg][p.end:]
			}
		}
		return strings.Join(out, "/")
	}
	var out []string
	for _, w := range ours {
		out = append(out, rebuild(func(int) bool { return true }, w))
		if len(parts) > 1 {
			for j := range parts {
				out = append(out, rebuild(func(i int) bool { return i == j }, w))
			}
		}
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

// kinFiles is the corpus's files named for one of ours as file is named
// for their word, where no file has the name rebuilt with ours:
//   - file's name begins (or ends) with their word as a part
//     ("zulip_content.html"), the kin's begins (or ends) with ours
//     ("matrix_description.html", "matrix_description_formatted.html"),
//     with file's extension, in file's folders but for those that are
//     their word, which may be any: an instance's folder is not always
//     its word (Pushover's templates are under po/);
//   - file's name is not their word's (zulip/urls.py): the file of that
//     name in the folder that is the instance's, the folder beside where
//     theirs is whose files are named for ours (hc/integrations/po/, which
//     holds add_pushover.html, for email/urls.py: po/urls.py).
//
// A name that holds the word inside ("signals.py") says nothing of the
// kind: no kin. The second result is each kin's share of the commit's
// similarity: files named the same way share it (a single one gets half:
// an exact name was not found), the file of the same name in the
// instance's folder is the commit's file for this instance and gets it
// whole (at half, po/urls.py for "Move pushover onboarding views" ranked
// 39th, behind every integration's views.py the words "views" and
// "integrations" name; whole, 5th).
func (d *derived) kinFiles(file string, their map[string]bool, ours []string) ([]string, float64) {
	segs := strings.Split(file, "/")
	base := segs[len(segs)-1]
	parts := nameParts(base)
	heads, tails := d.nameEnds()
	var byEnd map[string][]int32
	switch {
	case len(parts) < 2:
	case their[strings.ToLower(parts[0])]:
		byEnd = heads
	case their[strings.ToLower(parts[len(parts)-1])]:
		byEnd = tails
	}
	var out []string
	if byEnd != nil {
		ext := path.Ext(base)
		for _, w := range ours {
			for _, doc := range byEnd[w] {
				c := d.corpus.Files[doc]
				if path.Ext(c) == ext && sameFrame(segs, c, their) {
					out = append(out, c)
				}
			}
		}
		return out, 1 / float64(max(len(out), 2))
	}
	// The instance's folder: the first of file's folders that is their
	// word, in its place the folder beside it that holds files named for
	// ours.
	k := slices.IndexFunc(segs[:len(segs)-1], func(s string) bool { return their[strings.ToLower(s)] })
	if k < 0 {
		return nil, 0
	}
	prefix := strings.Join(segs[:k], "/") + "/"
	if k == 0 {
		prefix = ""
	}
	seen := map[string]bool{}
	for _, w := range ours {
		for _, doc := range append(slices.Clip(heads[w]), tails[w]...) {
			c := d.corpus.Files[doc]
			if !strings.HasPrefix(c, prefix) {
				continue
			}
			rest := c[len(prefix):]
			slash := strings.IndexByte(rest, '/')
			if slash <= 0 || seen[rest[:slash]] || rest[:slash] == segs[k] {
				continue
			}
			seen[rest[:slash]] = true
			alias := slices.Clone(segs)
			alias[k] = rest[:slash]
			if a := strings.Join(alias, "/"); d.has(a) {
				out = append(out, a)
			}
		}
	}
	return out, 1
}

// has reports whether the corpus holds file.
func (d *derived) has(file string) bool {
	_, ok := d.corpus.Doc(file)
	return ok
}

// sameFrame reports whether c has the folders of the path segs, but for
// those that are their word.
func sameFrame(segs []string, c string, their map[string]bool) bool {
	cs := strings.Split(c, "/")
	if len(cs) != len(segs) {
		return false
	}
	for k := range len(segs) - 1 {
		if cs[k] != segs[k] && !their[strings.ToLower(segs[k])] {
			return false
		}
	}
	return true
}

// nameParts is the parts of a file name's stem (up to its last dot),
// split at '_', '-' and '.'.
func nameParts(base string) []string {
	if dot := strings.LastIndexByte(base, '.'); dot > 0 {
		base = base[:dot]
	}
	return strings.FieldsFunc(base, func(r rune) bool { return r == '_' || r == '-' || r == '.' })
}

// nameEnds returns the corpus's files by the first and by the last part
// of their names (of names of several parts, lower-cased), built on first
// use in one pass and kept with the derived lookups.
func (d *derived) nameEnds() (heads, tails map[string][]int32) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if d.byHead == nil {
		d.byHead, d.byTail = map[string][]int32{}, map[string][]int32{}
		for i, f := range d.corpus.Files {
			h, t, ok := nameEndParts(f)
			if !ok {
				continue
			}
			d.byHead[h] = append(d.byHead[h], int32(i))
			d.byTail[t] = append(d.byTail[t], int32(i))
		}
	}
	return d.byHead, d.byTail
}

// nameEndParts is nameParts' first and last part of f's name, lower-cased,
// without splitting the whole name (47,550 files: 51 ms with
// strings.FieldsFunc, 13 ms this way, once a corpus); ok is false for a
// name of one part.
func nameEndParts(f string) (head, tail string, ok bool) {
	base := f[strings.LastIndexByte(f, '/')+1:]
	if dot := strings.LastIndexByte(base, '.'); dot > 0 {
		base = base[:dot]
	}
	isSep := func(c byte) bool { return c == '_' || c == '-' || c == '.' }
	start, end := 0, len(base)
	for start < end && isSep(base[start]) {
		start++
	}
	for end > start && isSep(base[end-1]) {
		end--
	}
	base = base[start:end]
	first := strings.IndexFunc(base, func(r rune) bool { return r < 0x80 && isSep(byte(r)) })
	if first < 0 {
		return "", "", false
	}
	last := len(base) - 1
	for !isSep(base[last]) {
		last--
	}
	return strings.ToLower(base[:first]), strings.ToLower(base[last+1:]), true
}
