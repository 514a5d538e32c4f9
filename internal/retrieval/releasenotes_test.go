package retrieval

import (
	"slices"
	"strings"
	"testing"
)

func TestPastReleaseNotes(t *testing.T) {
	files := []string{
		"src/site/resources/release-notes/RELEASE-NOTES-3.2.txt",
		"src/site/resources/release-notes/RELEASE-NOTES-3.9.txt",
		"src/site/resources/release-notes/RELEASE-NOTES-3.10.txt", // newest: 3.10 is after 3.9
		"RELEASE-NOTES.txt",           // the current notes: no version
		"CHANGELOG/CHANGELOG-1.19.md", // Kubernetes-style
		"CHANGELOG/CHANGELOG-1.20.md", // newest of its folder
		"docs/releases/4.2.txt",       // Django-style, bare version in a notes folder
		"docs/releases/5.0.txt",       // newest
		"src/main/java/org/acme/V1_2.java",
		"internal/releases/v1_2.go", // code under a releases folder
		"internal/releases/v1_3.go",
		"docs/api/2.0.md", // a version under a folder that is no notes folder
		"src/site/xdoc/upgradeto3_0.xml",
	}
	want := map[string]bool{
		"src/site/resources/release-notes/RELEASE-NOTES-3.2.txt": true,
		"src/site/resources/release-notes/RELEASE-NOTES-3.9.txt": true,
		"CHANGELOG/CHANGELOG-1.19.md":                            true,
		"docs/releases/4.2.txt":                                  true,
	}
	// The index gives code its language; here the extension stands in.
	code := func(f string) string {
		if strings.HasSuffix(f, ".go") || strings.HasSuffix(f, ".java") {
			return "code"
		}
		return ""
	}
	got := pastReleaseNotes(files, func(i int) bool { return sourcePrior(files[i], code(files[i])) == textPrior })
	for i, f := range files {
		if got[i] != want[f] {
			t.Errorf("past release notes %q = %v, want %v", f, got[i], want[f])
		}
	}
}

// TestPastReleaseNotesLeftOut: a vague maintenance subject's words are in
// every release's notes; the notes of released versions are not edited,
// so the source file takes their places. A task about release notes, or
// one naming the version, gets them back.
func TestPastReleaseNotesLeftOut(t *testing.T) {
	old := "src/site/resources/release-notes/RELEASE-NOTES-3.2.txt"
	notes := `Apache Commons Lang 3.2 release notes

o LANG-900: Fix spelling and grammar in Javadoc of StringUtils.
o LANG-901: Better exception message when parsing fails.
o LANG-902: Fix spelling of parameter names.
`
	ix := indexFiles(t, map[string]string{
		old: notes,
		"src/site/resources/release-notes/RELEASE-NOTES-3.3.txt": notes,
		"src/main/java/org/apache/commons/lang3/StringUtils.java": `package org.apache.commons.lang3;

/** Operations on String that are null safe. Checks the spelling of nothing. */
public class StringUtils {
    public static boolean isEmpty(final CharSequence cs) {
        return cs == null || cs.length() == 0;
    }
}
`,
	})
	got := files(Rank(ix, Query{Prompt: "fix spelling/grammar"}))
	if slices.Contains(got, old) {
		t.Errorf("rank = %v, want the 3.2 notes left out", got)
	}
	if !slices.Contains(got, "src/site/resources/release-notes/RELEASE-NOTES-3.3.txt") {
		t.Errorf("rank = %v, want the newest notes kept", got)
	}
	for _, prompt := range []string{"Fix spelling in the release notes", "Fix spelling in 3.2 notes"} {
		if got := files(Rank(ix, Query{Prompt: prompt})); !slices.Contains(got, old) {
			t.Errorf("%q ranks %v, want the 3.2 notes", prompt, got)
		}
	}
}
