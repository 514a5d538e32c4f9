package retrieval

import "slices"

// docKinds is what ranking asks of every scored file's path on every
// query: whether it is a test (leaveOut, the churn fill) or a stylesheet
// (stylesheet.go) and its prior (prior.go), with and without migrations
// asked for. They depend on the
// path and language alone, and asked per query they were a sixth of a warm
// ranking at 47,550 files (isTestFile and prior over every file a lane
// found: 50 of 300 CPU-ms), so each corpus works them out once.
type docKinds struct {
	test       []bool
	stylesheet []bool
	prior      [2][]float64 // by migrations asked for: [0] not, [1] asked
	pastNotes  []bool       // notes of a past release (releasenotes.go)
}

// kinds returns the corpus's docKinds, worked out on first use (or kept
// from the previous corpus when its files and languages are the same).
func (d *derived) kinds() *docKinds {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if d.docKinds == nil {
		c := d.corpus
		k := &docKinds{test: make([]bool, len(c.Files)), stylesheet: make([]bool, len(c.Files)), prior: [2][]float64{make([]float64, len(c.Files)), make([]float64, len(c.Files))}}
		for i, f := range c.Files {
			// prior's answers, each question asked once.
			k.stylesheet[i] = isStylesheet(f)
			if k.test[i] = isTestFile(f); k.test[i] {
				k.prior[0][i], k.prior[1][i] = testPrior, testPrior
				continue
			}
			k.prior[1][i] = sourcePrior(f, c.Langs[i])
			k.prior[0][i] = k.prior[1][i]
			if isMigration(f) {
				k.prior[0][i] = migrationPrior
			}
		}
		k.pastNotes = pastReleaseNotes(c.Files, func(i int) bool { return !k.test[i] && k.prior[1][i] == textPrior })
		d.docKinds = k
	}
	return d.docKinds
}

// priorOf is prior for document doc.
func (k *docKinds) priorOf(doc int32, migrations bool) float64 {
	if migrations {
		return k.prior[1][doc]
	}
	return k.prior[0][doc]
}

// sameKinds reports whether prev's docKinds hold for d's corpus: the same
// files in the same languages.
func sameKinds(prev, d *derived) bool {
	return prev.docKinds != nil && slices.Equal(prev.corpus.Files, d.corpus.Files) && slices.Equal(prev.corpus.Langs, d.corpus.Langs)
}
