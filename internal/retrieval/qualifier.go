package retrieval

import (
	"path"
	"regexp"
	"strings"
)

// qualifiedRE finds qualified names in a prompt: StopWatch.formatSplitTime,
// settings.ADMINS, Fraction.multiplyBy(), hc.api.models.Check,
// dspace.iiif.enabled.
var qualifiedRE = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+`)

// qualifierLane finds the files a qualified name's qualifier names. In
// "Fix NPE in StopWatch.getStopTime()" or "Update the settings.ADMINS
// format" the part before the dot is a class or module, and across
// languages a class or module lives in a file of that name (StopWatch.java,
// settings.py, Fraction.ts). The member name alone is weak evidence (many
// files call getStopTime); the qualifier says which one defines it. A
// qualifier no file is named after (a package path such as
// hc.integrations, a config key such as dspace.iiif.enabled) names
// nothing here; treating it as a folder scope was measured and lifted
// every sibling of the folder (docs/retrieval-eval.md). When several files
// share the stem the evidence is split between them.
func (d *derived) qualifierLane(prompt string) map[int32]float64 {
	out := map[int32]float64{}
	seen := map[string]bool{}
	for _, name := range qualifiedRE.FindAllString(prompt, -1) {
		// The member's own qualifier is the innermost one: models in
		// hc.api.models.Check, StringUtils in lang3.StringUtils.join; the
		// parts before it are packages, and in a config key
		// (dspace.iiif.enabled) the product name in front names nothing.
		parts := strings.Split(name, ".")
		q := strings.ToLower(parts[len(parts)-2])
		if len(q) < 3 || seen[q] {
			continue
		}
		seen[q] = true
		docs := d.byBaseStem()[q]
		for _, doc := range docs {
			out[doc] = max(out[doc], 1/float64(len(docs)))
		}
	}
	return out
}

// byBaseStem maps a lower-cased file name up to its first dot to the
// files of that name: "StopWatch.java" and "stopwatch.ts" under
// "stopwatch".
func (d *derived) byBaseStem() map[string][]int32 {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if d.baseStems == nil {
		d.baseStems = map[string][]int32{}
		for i, f := range d.corpus.Files {
			base := path.Base(f)
			if j := strings.IndexByte(base, '.'); j > 0 {
				base = base[:j]
			}
			k := strings.ToLower(base)
			d.baseStems[k] = append(d.baseStems[k], int32(i))
		}
	}
	return d.baseStems
}
