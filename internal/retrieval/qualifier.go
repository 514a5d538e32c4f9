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
		// main.server.ts, selectize.less, Node.js end in an extension the
		// tree's files have: a file or product name, which the artifact
		// lane matches whole; its stem names no qualifier.
		if last := parts[len(parts)-1]; last == strings.ToLower(last) && len(d.filesBy(&d.byExt, extKey)[last]) > 0 {
			continue
		}
		q := strings.ToLower(parts[len(parts)-2])
		if len(q) < 3 || seen[q] {
			continue
		}
		seen[q] = true
		docs := d.filesBy(&d.baseStems, baseStemKey)[q]
		for _, doc := range docs {
			out[doc] = max(out[doc], 1/float64(len(docs)))
		}
	}
	return out
}

// extKey is a file's lower-cased extension without its dot.
func extKey(f string) string { return strings.ToLower(strings.TrimPrefix(path.Ext(f), ".")) }

// baseStemKey is a file's lower-cased name up to its first dot:
// "StopWatch.java" and "stopwatch.ts" are both "stopwatch".
func baseStemKey(f string) string {
	base := path.Base(f)
	if j := strings.IndexByte(base, '.'); j > 0 {
		base = base[:j]
	}
	return strings.ToLower(base)
}
