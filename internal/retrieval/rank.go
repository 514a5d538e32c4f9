package retrieval

import (
	"math"
	"sort"

	"github.com/mcpc/mcpc/internal/indexer"
)

// laneWeights fuse the lanes after each is normalised to [0, 1].
var laneWeights = map[string]float64{
	"lexical": 1.0,
	"path":    0.6,
	"symbol":  0.6,
	"graph":   0.35,
	"anchor":  0.1,
	// phrase: a file holding the prompt's quoted text verbatim.
	"phrase": 1.0,
	// scope: inside the folder a commit scope names (reorders only).
	"scope": 0.3,
	// companion: template or stylesheet of a best-ranked component.
	"companion": 0.4,
	// registry: the file that lists the application's languages, for a
	// prompt adding one (localereg.go); as a file the prompt quotes.
	"registry": 1.0,
	// qualifier: the file a qualified name's qualifier names
	// (StopWatch.getStopTime -> StopWatch.java), as strong as a file the
	// prompt names (the artifact side lane).
	"qualifier": 0.5,
	// ticket: changed by earlier commits of the ticket the prompt names,
	// as exact a name for the work as a quoted phrase is for its text, and
	// weighed as a file the text lanes all agree on (lexical 1 with path or
	// symbol 0.6 and a scrap of anchor or companion): a ticket's follow-up
	// says little ("[DURACOM-317] improve labels", "[DURACOM-444] add
	// helper functions, refactor"), and at 1.0 a vague word found in a
	// file's text and name outranked the ticket's own files
	// (dspace-angular, 2026-12-03: R@10 0.554 -> 0.596, R@20 0.644 ->
	// 0.660; 3.0 measured the same at R@5-R@20).
	"ticket": 2.0,
	// recent: changed by the latest commits; a prior, the weakest lane
	// (see recentLane). Measured on the seven sets: 0.3 lifted DSpace
	// (R@20 0.562 -> 0.631) but put the last commits' files ahead of text
	// hits on outline (R@10 0.710 -> 0.685); at 0.15 no set lost.
	"recent": 0.15,
	// cochange: changed in the same past commits as the best files (see
	// coChangeLane).
	"cochange": 0.4,
	// similar: changed by past commits whose subjects are like the prompt
	// (see similarLane). Weighed as the ticket lane, its exact case: a
	// subject like the prompt names the work as a key does. Measured on
	// the seven sets at 0.4, 0.6, 0.8 and 1.0: every step lifted outline,
	// excalidraw or healthchecks (the files it lifts held 44% gold in the
	// first ten places, the ranking's average 13%) and cost DSpace one
	// file at the 10th place from 0.6 on (R@10 -0.008).
	"similar": 1.0,
	// analogue: this task's instance of a similar commit's files (see
	// analogueLane), weighed as the similar lane it derives from. At 0.5
	// healthchecks' R@10 gained half as much (0.694 -> 0.702 against
	// 0.715).
	"analogue": 1.0,
}

// faintContribution is the least a lane must add to a file to count it
// as evidence: a file only faint signals found takes no pack slot.
const faintContribution = 0.05

// seedCount is how many of the best first-stage files seed the graph walk.
const seedCount = 10

// Rank orders workspace files for q, best first, within q.Limit files and
// q.MaxBytes bytes.
func Rank(ix *indexer.Index, q Query) []Ranked {
	if q.Limit <= 0 {
		q.Limit = DefaultLimit
	}
	if q.MaxBytes <= 0 {
		q.MaxBytes = DefaultMaxBytes
	}
	scored := score(ix, q)
	d := derive(ix)
	var out []Ranked
	var bytes int64
	for _, s := range scored {
		if len(out) >= q.Limit {
			break
		}
		size := d.corpus.Sizes[s.doc]
		if bytes+size > q.MaxBytes {
			continue // a smaller file further down may still fit
		}
		bytes += size
		out = append(out, Ranked{File: d.corpus.Files[s.doc], Score: round(s.total), Lanes: s.lanes})
	}
	if len(out) < q.Limit {
		out = d.fillFromChurn(out, scored, q, bytes)
	}
	return out
}

// Search finds files for a free-text need, leaving out files in exclude
// (those already in the pack). It serves `escalate`.
func Search(ix *indexer.Index, need string, exclude map[string]bool, limit int) []Ranked {
	if limit <= 0 {
		limit = 10
	}
	d := derive(ix)
	var out []Ranked
	for _, s := range score(ix, Query{Prompt: need}) {
		if len(out) >= limit {
			break
		}
		f := d.corpus.Files[s.doc]
		if exclude[f] {
			continue
		}
		out = append(out, Ranked{File: f, Score: round(s.total), Lanes: s.lanes})
	}
	return out
}

type docScore struct {
	doc   int32
	total float64
	lanes []string
}

// score runs the lanes and fuses them; only documents some lane found are
// returned, best first, ties broken by path for stable packs.
func score(ix *indexer.Index, q Query) []docScore {
	d := derive(ix)
	terms := d.withoutDocCommentWords(queryTerms(q))
	lanes := map[string]map[int32]float64{
		"lexical": normalise(d.lexical(terms)),
		"path":    normalise(d.path(terms)),
		"symbol":  normalise(d.symbol(terms)),
		"phrase":  d.phraseLane(ix, q),
		// qualifier: normalised by construction (1 for the file a qualifier names).
		"qualifier": d.qualifierLane(q.Prompt),
	}
	for lane, files := range q.Boost {
		m := map[int32]float64{}
		for f, w := range files {
			if doc, ok := d.corpus.Doc(f); ok {
				m[doc] = math.Max(0, math.Min(1, w))
			}
		}
		lanes[lane] = m
	}
	first := fuse(lanes)
	sortScores(first)
	seeds := first
	if len(seeds) > seedCount {
		seeds = seeds[:seedCount]
	}
	lanes["graph"] = normalise(d.graph(ix, seeds))
	// Anchors only reorder files another lane found; on their own they
	// would pour whole folders into the pack.
	anchor := d.anchor(seeds)
	found := map[int32]bool{}
	for _, s := range first {
		found[s.doc] = true
	}
	lanes["cochange"] = d.coChangeLane(q.History, seeds)
	for _, lane := range []string{"graph", "cochange"} {
		for doc := range lanes[lane] {
			found[doc] = true
		}
	}
	for doc := range anchor {
		if !found[doc] {
			delete(anchor, doc)
		}
	}
	lanes["anchor"] = anchor
	scope, _ := promptScope(q.Prompt)
	lanes["scope"] = d.scopeLane(scope, found)
	lanes["companion"] = d.companions(seeds)
	if reg := d.localeRegistryLane(q.Prompt); len(reg) > 0 {
		lanes["registry"] = reg
	}
	final := fuse(lanes) // sorted once its priors are in
	final = d.leaveOut(final, q)
	migrations, style, kinds := asksForMigrations(q), asksForStyle(q), d.kinds()
	wraps := d.wrapperFiles(ix)
	said := saidTerms(q)
	for i := range final {
		final[i].total *= kinds.priorOf(final[i].doc, migrations)
		// A stylesheet goes behind the code unless the task is about
		// looks (stylesheet.go).
		if !style && kinds.stylesheet[final[i].doc] {
			final[i].total *= stylesheetPrior
		}
		// A file only its name speaks for goes behind files whose text
		// does (prior.go).
		if nameOnly(final[i].lanes) {
			final[i].total *= nameOnlyPrior
		}
		// A module's types and entry file goes behind the files it
		// lists (declarations.go).
		if d.declares[final[i].doc] {
			final[i].total *= declarationPrior
		}
		// A wrapper goes behind the file it wraps unless the prompt
		// says the word it adds (wrappers.go).
		if wrapperOf(wraps, final[i].doc, said) {
			final[i].total *= wrapperPrior
		}
	}
	sortScores(final)
	return final
}

// leaveOut drops files the task did not ask for: tests unless the prompt
// is about tests, catalogues of locales the prompt does not name. They
// share the task's words and would take the slots its code needs; an agent
// that needs them asks (escalate).
func (d *derived) leaveOut(scored []docScore, q Query) []docScore {
	tests := asksForTests(q)
	named, kinds := namedLocales(q.Prompt), d.kinds()
	out := scored[:0]
	for _, s := range scored {
		f := d.corpus.Files[s.doc]
		if (!tests && kinds.test[s.doc]) || unwantedLocale(f, named) ||
			(kinds.pastNotes[s.doc] && !wantsPastNotes(q.Prompt, f)) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// fuse sums weighted lane scores per document, in no order. A lane joins a
// document's lane list when it contributed meaningfully.
func fuse(lanes map[string]map[int32]float64) []docScore {
	// Scores gather in a slice found through a table by document, not in
	// a map: at 47,550 files a map's inserts and lookups were a fifth of a
	// warm ranking (64 of 340 ms), every lane adding tens of thousands.
	var at []int32 // document -> 1 + its index in totals; 0: none yet
	names := make([]string, 0, len(lanes))
	largest := 0
	for name, lane := range lanes {
		names = append(names, name)
		largest = max(largest, len(lane))
	}
	// Room for the largest lane's documents at once: grown from nothing,
	// totals was copied a dozen times on every ranking of a large tree.
	totals := make([]docScore, 0, largest)
	sort.Strings(names)
	for _, name := range names {
		w, ok := laneWeights[name]
		if !ok {
			w = 0.5 // caller-supplied lanes (policy, artifact, memory)
		}
		for doc, v := range lanes[name] {
			if v <= 0 || doc < 0 {
				continue
			}
			if int(doc) >= len(at) {
				at = append(at, make([]int32, int(doc)+1-len(at))...)
			}
			if at[doc] == 0 {
				totals = append(totals, docScore{doc: doc})
				at[doc] = int32(len(totals))
			}
			ds := &totals[at[doc]-1]
			ds.total += w * v
			if w*v >= faintContribution {
				ds.lanes = append(ds.lanes, name)
			}
		}
	}
	out := totals[:0]
	for _, ds := range totals {
		// Only faint signals, even in sum: not worth a pack slot. Several
		// faint ones that add up are as much evidence as one at the floor
		// (flask's json/__init__.py for "Fix broken func directives": the
		// word fourteen times, in a sixth of the tree, 0.047 of the best
		// file, and a faint graph link; dropped, it was missing from a
		// 27-file pack with room for 40).
		if len(ds.lanes) == 0 && ds.total < faintContribution {
			continue
		}
		out = append(out, ds)
	}
	return out
}

func sortScores(out []docScore) {
	sort.Slice(out, func(i, j int) bool {
		if out[i].total != out[j].total {
			return out[i].total > out[j].total
		}
		return out[i].doc < out[j].doc
	})
}

func normalise(m map[int32]float64) map[int32]float64 {
	top := 0.0
	for _, v := range m {
		top = math.Max(top, v)
	}
	if top <= 0 {
		return m
	}
	for k, v := range m {
		m[k] = v / top
	}
	return m
}

func round(v float64) float64 { return math.Round(v*1000) / 1000 }
