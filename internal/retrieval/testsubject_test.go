package retrieval

import (
	"slices"
	"testing"
)

func TestTestSubjectStem(t *testing.T) {
	tests := []struct {
		note, file, want string
	}{
		{note: "junit", file: "src/test/java/org/apache/commons/lang3/math/NumberUtilsTest.java", want: "numberutils"},
		{note: "junit plural", file: "src/test/java/org/acme/StringsTests.java", want: "strings"},
		{note: "jmh benchmark", file: "src/test/java/org/apache/commons/lang3/math/NumberUtilsBenchmark.java", want: "numberutils"},
		{note: "failsafe integration test", file: "src/test/java/org/acme/ItemRestIT.java", want: "itemrest"},
		{note: "angular spec", file: "src/app/item/item.component.spec.ts", want: "item"},
		{note: "jest test", file: "packages/excalidraw/element/binding.test.ts", want: "binding"},
		{note: "pytest", file: "hc/front/tests/test_views.py", want: "views"},
		{note: "go test", file: "modules/caddyhttp/server_test.go", want: "server"},
		{note: "a helper of the tests names no subject", file: "src/test/java/org/acme/AbstractIntegrationSupport.java"},
		{note: "a bare Test class names none", file: "src/test/java/org/acme/Test.java"},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			if got := testSubjectStem(tt.file); got != tt.want {
				t.Errorf("testSubjectStem(%q) = %q, want %q", tt.file, got, tt.want)
			}
		})
	}
}

// TestRecentTestCommitPointsAtItsSubject: "Add NumberUtilsBenchmark"
// changed only a benchmark under src/test, and the next commit,
// "Performance: Short-circuit check based on pre-derived candidate
// Double", changed the NumberUtils it measures. The pack leaves the
// benchmark out; the recent lane's share of it goes to NumberUtils.java,
// the source of that name nearest the test, not to another package's
// file of the same name.
func TestRecentTestCommitPointsAtItsSubject(t *testing.T) {
	subject := "src/main/java/org/apache/commons/lang3/math/NumberUtils.java"
	ix := indexFiles(t, map[string]string{
		subject: `package org.apache.commons.lang3.math;

public class NumberUtils {
    public static Number createNumber(final String str) {
        return Double.valueOf(str);
    }
}
`,
		"src/main/java/org/apache/commons/lang3/legacy/NumberUtils.java": `package org.apache.commons.lang3.legacy;

public class NumberUtils {
    public static int toInt(final String str) {
        return Integer.parseInt(str);
    }
}
`,
		"src/test/java/org/apache/commons/lang3/math/NumberUtilsBenchmark.java": `package org.apache.commons.lang3.math;

public class NumberUtilsBenchmark {
    public Number createNumber() {
        return NumberUtils.createNumber("1.5");
    }
}
`,
		"src/main/java/org/apache/commons/lang3/StringUtils.java": `package org.apache.commons.lang3;

public class StringUtils {
    public static boolean isBlank(final CharSequence cs) {
        return cs == null || cs.length() == 0;
    }
}
`,
	})
	history := []Commit{
		{Subject: "Add NumberUtilsBenchmark", Files: []string{"src/test/java/org/apache/commons/lang3/math/NumberUtilsBenchmark.java"}},
		{Subject: "Bump commons-parent from 98 to 99", Files: []string{"pom.xml"}},
		{Subject: "Fix test resource", Files: []string{"src/test/resources/test.properties"}},
		{Subject: "Javadoc", Files: []string{"src/main/java/org/apache/commons/lang3/StringUtils.java"}},
	}
	recent := SideLanes(ix, SideInputs{Prompt: "Performance: Short-circuit check", History: history})["recent"]
	if want := testSubjectShare; recent[subject] != want {
		t.Errorf("recent lane gives %s %v, want %v (the latest commit tested it): %v", subject, recent[subject], want, recent)
	}
	if v := recent["src/main/java/org/apache/commons/lang3/legacy/NumberUtils.java"]; v != 0 {
		t.Errorf("another package's NumberUtils.java got %v, want 0", v)
	}
	got := files(Rank(ix, Query{Prompt: "Performance: Short-circuit check", Boost: map[string]map[string]float64{"recent": recent}, History: history}))
	if len(got) == 0 || got[0] != subject {
		t.Errorf("rank = %v, want %s first", got, subject)
	}
	if slices.Contains(got, "src/test/java/org/apache/commons/lang3/math/NumberUtilsBenchmark.java") {
		t.Errorf("rank = %v holds the benchmark, a test the task did not ask for", got)
	}
}
