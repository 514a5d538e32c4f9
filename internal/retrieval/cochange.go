package retrieval

import "sort"

// Co-change: files that changed together before change together again
// (evolutionary coupling, as mined from version histories by Zimmermann et
// al., "Mining Version Histories to Guide Software Changes"). It is the
// one signal that knows a tree's layout without being told it: an Angular
// component's .ts, .html and .scss, a Django app's views.py, urls.py and
// forms.py, a Go handler and its Caddyfile parsing, a Java class and the
// utility it delegates to are edited in the same commits, whatever the
// files are called, and their text rarely repeats the words the task uses
// for one of them.

// maxCoChangeFiles is the largest commit read as evidence of coupling. A
// commit of a few files is one change; a sweep (a rename, a lint or
// formatting pass, a dependency bump) touches files that have nothing to
// do with each other, and with n files it would add n² pairs.
const maxCoChangeFiles = 12

// minCoChanges is the fewest commits a pair must share to count. A pair
// seen once is a coincidence as often as a coupling: counted, it lifted
// files one commit had shared with a seed above text hits at the 10th
// and 20th places (outline R@10 -0.025, flask R@20 -0.025).
const minCoChanges = 2

// coChangeDepth is how many of the latest commits the co-change lane
// reads: the ticket lane's depth, enough for a file edited monthly to
// have partners, and the same `git log` serves both.
const coChangeDepth = ticketDepth

// coChangeLane gives the files that changed with the seeds in past
// commits. A seed's partner gets the seed's strength (its first-stage
// score over the best seed's) times n_sf / (max(n_s, n_f) + 1): the share
// of the commits of the more often changed of the two that changed both,
// smoothed by one. A component's code and template changed together in
// three of three commits are near certain (0.75). The partner's own count
// weighs as much as the seed's because a hub (a model, the app object, a
// routes table) changes with everything: by the seed's count alone
// (n_sf/n_s) or the cosine (n_sf/sqrt(n_s n_f)) it lifted outline's
// server/models/Collection.ts and excalidraw's App.tsx for any seed it
// had been committed with, and pushed text hits past the 5th and 10th
// places. A partner of several seeds takes the best.
func (d *derived) coChangeLane(history []Commit, seeds []docScore) map[int32]float64 {
	out := map[int32]float64{}
	if len(seeds) == 0 || len(history) == 0 {
		return out
	}
	top := seeds[0].total
	strength := make(map[int32]float64, len(seeds))
	for _, s := range seeds {
		if top > 0 {
			strength[s.doc] = s.total / top
		}
	}
	seen := map[int32]int{}                    // file -> commits that changed it
	pairs := map[int32]map[int32]int{}         // seed -> partner -> commits that changed both
	docs := make([]int32, 0, maxCoChangeFiles) // one commit's files, in the corpus
	for _, c := range history[:min(len(history), coChangeDepth)] {
		if len(c.Files) < 2 || len(c.Files) > maxCoChangeFiles {
			continue
		}
		docs = docs[:0]
		for _, f := range c.Files {
			if doc, ok := d.corpus.Doc(f); ok {
				docs = append(docs, doc)
			}
		}
		for _, s := range docs {
			seen[s]++
			if _, ok := strength[s]; !ok {
				continue
			}
			for _, p := range docs {
				if p == s {
					continue
				}
				if pairs[s] == nil {
					pairs[s] = map[int32]int{}
				}
				pairs[s][p]++
			}
		}
	}
	for s, partners := range pairs {
		for p, n := range partners {
			if n < minCoChanges {
				continue
			}
			v := strength[s] * float64(n) / float64(max(seen[s], seen[p])+1)
			out[p] = max(out[p], v)
		}
	}
	return out
}

// fillFromChurn fills a pack no lane could fill with the files the history
// changed most often, after every file a lane found. A vague subject
// ("fix spelling/grammar", "Inline single use local variable") matches
// little, and its pack came out at 16 of 40 files; the change goes where
// changes go, and in a library that is its few central files
// (StringUtils.java: 15 of commons-lang's latest 300 commits of at most 12
// files changed it, more than any other source file; the row's gold file,
// it came in 19th). A churn prior over every pack, at weight 0.15, put those files
// ahead of text hits (outline R@10 -0.025, README, "similar subjects");
// here they take only places no evidence wanted. Sweeps (more than
// maxCoChangeFiles files) are left out as for co-change, and so are the
// files the pack leaves out (tests unless asked, unwanted locales). Ties
// go to the file changed latest.
func (d *derived) fillFromChurn(out []Ranked, scored []docScore, q Query, bytes int64) []Ranked {
	if len(q.History) == 0 {
		return out
	}
	taken := make(map[int32]bool, len(scored))
	for _, s := range scored {
		taken[s.doc] = true
	}
	type churn struct {
		doc       int32
		n, latest int
	}
	byDoc := map[int32]*churn{}
	var order []*churn
	for i, c := range q.History[:min(len(q.History), coChangeDepth)] {
		if len(c.Files) > maxCoChangeFiles {
			continue
		}
		for _, f := range c.Files {
			doc, ok := d.corpus.Doc(f)
			if !ok || taken[doc] {
				continue
			}
			ch := byDoc[doc]
			if ch == nil {
				ch = &churn{doc: doc, latest: i}
				byDoc[doc] = ch
				order = append(order, ch)
			}
			ch.n++
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].n != order[j].n {
			return order[i].n > order[j].n
		}
		return order[i].latest < order[j].latest
	})
	tests := asksForTests(q)
	named := namedLocales(q.Prompt)
	floor := faintContribution
	if len(out) > 0 {
		floor = min(floor, out[len(out)-1].Score)
	}
	for _, ch := range order {
		if len(out) >= q.Limit || ch.n < minCoChanges {
			break
		}
		f := d.corpus.Files[ch.doc]
		size := d.corpus.Sizes[ch.doc]
		if (!tests && isTestFile(f)) || unwantedLocale(f, named) || bytes+size > q.MaxBytes {
			continue
		}
		bytes += size
		// Below every file a lane found, in churn order.
		out = append(out, Ranked{File: f, Score: round(floor * float64(ch.n) / float64(order[0].n) / 2), Lanes: []string{"churn"}})
	}
	return out
}
