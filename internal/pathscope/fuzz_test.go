//go:build unix

package pathscope

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

var knownProblems = []string{
	ProblemEmpty, ProblemAbsolute, ProblemBackslash, ProblemNUL, ProblemControlChar,
	ProblemPercentEscape, ProblemTraversal, ProblemEscapesWorktree, ProblemSymlink,
	ProblemGitInternal, ProblemStateDir, ProblemNotFound, ProblemNotRegular,
	ProblemHardLinked, ProblemTooLong, ProblemInvalidUTF8, ProblemUnicodeFormat,
}

// FuzzResolve checks the invariants policy relies on for any input, against
// the adversarial fixture: the canonical form can never point up or out, a
// valid path is always a readable in-tree file, and no read ever returns
// bytes from outside the worktree.
func FuzzResolve(f *testing.F) {
	for _, tc := range resolveCases {
		f.Add(tc.raw)
	}
	fx := newFixture(f)
	f.Fuzz(func(t *testing.T, raw string) {
		facts := fx.r.Resolve(raw)
		c := facts.Canonical
		if facts.Raw != raw {
			t.Fatalf("Raw = %q, want %q", facts.Raw, raw)
		}
		if strings.HasPrefix(c, "/") || strings.Contains(c, `\`) || strings.ContainsRune(c, 0) {
			t.Fatalf("Canonical %q is absolute or has a backslash or NUL", c)
		}
		if slices.Contains(strings.Split(c, "/"), "..") {
			t.Fatalf("Canonical %q has a .. segment", c)
		}
		if facts.Problems == nil || !slices.IsSorted(facts.Problems) || len(slices.Compact(slices.Clone(facts.Problems))) != len(facts.Problems) {
			t.Fatalf("Problems %#v not a sorted, unique, non-nil list", facts.Problems)
		}
		for _, code := range facts.Problems {
			if !slices.Contains(knownProblems, code) {
				t.Fatalf("unknown problem code %q", code)
			}
		}
		if facts.Valid != (len(facts.Problems) == 0) {
			t.Fatalf("Valid %v with problems %v", facts.Valid, facts.Problems)
		}
		if facts.Valid && (c == "" || !facts.Exists || !facts.Regular) {
			t.Fatalf("valid facts that are not an existing regular file: %+v", facts)
		}

		for _, name := range []string{raw, c} {
			data, err := fx.r.ReadFile(name, 1<<20)
			if bytes.Contains(data, []byte(outsideMarker)) {
				t.Fatalf("ReadFile(%q) returned bytes from outside the worktree", name)
			}
			if err == nil && (name != c || !ioSafe(facts)) {
				t.Fatalf("ReadFile(%q) succeeded for %+v", name, facts)
			}
		}
		if facts.Valid {
			if _, err := fx.r.ReadFile(c, 1<<20); err != nil {
				t.Fatalf("ReadFile of valid %q: %v", c, err)
			}
		}
	})
}
