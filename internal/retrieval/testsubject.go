package retrieval

import (
	"path"
	"strings"
)

// A commit that changed only a test still says where work is going: the
// code under test. "Add NumberUtilsBenchmark" (a JMH benchmark under
// src/test) came just before "Performance: Short-circuit check based on
// pre-derived candidate Double", which changed NumberUtils.java. The
// history lanes hand out the files past commits changed, and the pack
// leaves tests out, so a test file's share of a lane was lost; its
// subject, the file the test is named after, gets it instead. Across
// ecosystems a test is named after its subject: NumberUtilsTest.java,
// NumberUtilsBenchmark.java, item.component.spec.ts, test_views.py,
// server_test.go.

// testSubjectStem is the lower-cased name of the code test file tests,
// or "" if its name does not say.
func testSubjectStem(file string) string {
	base := path.Base(file)
	stem := base
	if j := strings.IndexByte(base, '.'); j > 0 {
		stem = base[:j]
	}
	switch {
	case strings.Contains(base, ".test.") || strings.Contains(base, ".spec."):
		// item.component.spec.ts -> item (the stem up to the first dot)
	case strings.HasPrefix(stem, "test_"):
		stem = strings.TrimPrefix(stem, "test_")
	case strings.HasSuffix(stem, "_test"):
		stem = strings.TrimSuffix(stem, "_test")
	default:
		trimmed := ""
		for _, suffix := range []string{"Tests", "Test", "IT", "Benchmark"} {
			if s, ok := strings.CutSuffix(stem, suffix); ok && s != "" {
				trimmed = s
				break
			}
		}
		if trimmed == "" {
			return ""
		}
		stem = trimmed
	}
	if len(stem) < 3 {
		return ""
	}
	return strings.ToLower(stem)
}

// testSubjects returns the non-test files of the tree that test file is
// named after, with the same extension; of several, those whose folders
// share the most names with the test's (src/test/java/org/x/math and
// src/main/java/org/x/math share org, x and math).
func (d *derived) testSubjects(test string) []int32 {
	stem := testSubjectStem(test)
	if stem == "" {
		return nil
	}
	ext := path.Ext(test)
	testDirs := map[string]bool{}
	for _, dir := range strings.Split(path.Dir(test), "/") {
		testDirs[dir] = true
	}
	var best []int32
	bestShared := -1
	kinds := d.kinds()
	for _, doc := range d.filesBy(&d.baseStems, baseStemKey)[stem] {
		f := d.corpus.Files[doc]
		if path.Ext(f) != ext || kinds.test[doc] {
			continue
		}
		shared := 0
		for _, dir := range strings.Split(path.Dir(f), "/") {
			if testDirs[dir] {
				shared++
			}
		}
		switch {
		case shared > bestShared:
			best, bestShared = []int32{doc}, shared
		case shared == bestShared:
			best = append(best, doc)
		}
	}
	return best
}

// testSubjectShare is the share of a test's score in a history lane its
// subject gets. A commit of tests alone tells where the work goes less
// surely than one that changed the code: a test is named after its
// subject by convention, not always, and the next task may be more tests.
// Measured on the eight sets (2026-12-03): at the whole score one
// healthchecks row lost a gold file from the 20th place to
// hc/front/templatetags/hc_extras.py, whose test a recent commit changed
// (R@20 0.826 -> 0.821); at half, none.
const testSubjectShare = 0.5

// withTestSubjects gives each test file's score in lane, at
// testSubjectShare, to the files it tests, split between them when its
// name fits several; a file with a score of its own keeps the larger.
func (d *derived) withTestSubjects(lane map[string]float64) map[string]float64 {
	for f, v := range lane {
		if !isTestFile(f) {
			continue
		}
		subjects := d.testSubjects(f)
		for _, doc := range subjects {
			s := d.corpus.Files[doc]
			lane[s] = max(lane[s], testSubjectShare*v/float64(len(subjects)))
		}
	}
	return lane
}
