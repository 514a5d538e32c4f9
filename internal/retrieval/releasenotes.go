package retrieval

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Past releases' notes: a file of notes for one released version
// (RELEASE-NOTES-3.2.1.txt, CHANGELOG-1.19.md, docs/releases/4.2.txt) is a
// record of the past, as an applied migration is: once the version is out
// its notes are not edited, and the next release's notes are a new file or
// the unversioned current one (RELEASE-NOTES.txt, changes.xml). Yet each
// holds the words of every kind of task the project has done ("Fix
// Javadoc", "better exception message", "spelling"), and in
// commons-lang's tree 25 of them took up to eleven of a vague subject's
// first 20 places at the text prior, ahead of the source file the change
// went to (StringUtils.java 19th for "fix spelling/grammar"). So they are
// left out of the pack, as tests and other locales' catalogues are, unless
// the prompt speaks of release notes or names the version; of a folder's
// versioned notes the newest is kept, as it may be the release being
// written (Django writes docs/releases/<next>.txt as features land).

// notesStem is a versioned notes file's name: a notes word, then the
// version (digits and dots or underscores, an optional v), any extension.
var notesStem = regexp.MustCompile(`(?i)^(?:release[-_ ]?notes|changes|changelog|news|history)[-_ ]v?(\d+(?:[._]\d+)+)(?:\.[a-z]+)?$`)

// versionName is a bare version as a file name (docs/releases/4.2.txt).
var versionName = regexp.MustCompile(`(?i)^v?(\d+(?:[._]\d+)+)(?:\.[a-z]+)?$`)

// notesFolders are the folder names under which a bare version names a
// release's notes.
var notesFolders = map[string]bool{"release-notes": true, "releasenotes": true, "release_notes": true, "releases": true, "changelog": true, "changelogs": true, "changes": true}

// noteVersion is the version a notes file is for, "" if it is none.
func noteVersion(file string) string {
	dir, base := splitPath(file)
	if m := notesStem.FindStringSubmatch(base); m != nil {
		return m[1]
	}
	_, folder := splitPath(dir)
	if notesFolders[strings.ToLower(folder)] {
		if m := versionName.FindStringSubmatch(base); m != nil {
			return m[1]
		}
	}
	return ""
}

// pastReleaseNotes marks the corpus's notes files of past releases: every
// versioned notes file but the newest of its folder. Only text is notes
// (text(i)): a releases/v1_2.go is code.
func pastReleaseNotes(files []string, text func(i int) bool) []bool {
	out := make([]bool, len(files))
	newest := map[string]int{} // folder -> index of its newest notes file
	for i, f := range files {
		v := noteVersion(f)
		if v == "" || !text(i) {
			continue
		}
		out[i] = true
		dir, _ := splitPath(f)
		if j, ok := newest[dir]; !ok || compareVersions(v, noteVersion(files[j])) > 0 {
			newest[dir] = i
		}
	}
	for _, i := range newest {
		out[i] = false
	}
	return out
}

// compareVersions orders two dotted (or underscored) versions by their
// numbers: 3.10 is after 3.9.
func compareVersions(a, b string) int {
	num := func(s string) []int {
		var out []int
		for p := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == '.' || r == '_' }) {
			n, _ := strconv.Atoi(p)
			out = append(out, n)
		}
		return out
	}
	return slices.Compare(num(a), num(b))
}

// notesWords mark a task about release notes or a changelog.
var notesWords = regexp.MustCompile(`(?i)\brelease[-_ ]?notes?\b|\bchange[-_ ]?logs?\b`)

// wantsPastNotes reports whether the prompt asks for past releases' notes:
// it speaks of release notes or names one's version.
func wantsPastNotes(prompt, file string) bool {
	if notesWords.MatchString(prompt) {
		return true
	}
	v := noteVersion(file)
	return v != "" && strings.Contains(prompt, v)
}
