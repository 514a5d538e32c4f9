package retrieval

import (
	"path"
	"strings"
)

// Priors scale a file's fused score by what kind of file it is. A task
// prompt names behaviour, and behaviour lives in source: tests, docs and
// data files share the task's words but are rarely where the change goes.
// They stay in the ranking, just behind source files of similar strength.
// A changelog or release notes file holds every word of a vague subject
// ("Javadoc: Remove obsolete comments and clarify", "fix error message")
// and outscored the source file the change went to by more than the 0.6
// text prior made up for: 0.25 puts release notes behind the source that
// holds most of the words, while a file the prompt names or quotes still
// outranks any source file (measured on all seven sets, 0.6 -> 0.4 ->
// 0.25, every gold file that moved moved up: commons-lang R@20 0.688 ->
// 0.713, flask R@10 0.849 -> 0.887 and R@20 0.920 -> 0.945).
const (
	testPrior = 0.6
	textPrior = 0.25
)

// sourceExtensions are code without a tree-sitter grammar in the index;
// they rank as source, not as text.
var sourceExtensions = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`css scss sass less vue svelte rb rs kt kts swift php c h cc cpp hpp cs
		scala sql sh bash graphql gql proto hbs ejs erb dart lua ex exs clj elm`) {
		sourceExtensions["."+e] = true
	}
}

func prior(file, lang string) float64 {
	if isTestFile(file) {
		return testPrior
	}
	if lang == "" && !sourceExtensions[strings.ToLower(path.Ext(file))] {
		return textPrior
	}
	return 1
}

// isTestFile recognises the common test naming conventions across
// ecosystems.
func isTestFile(file string) bool {
	base := path.Base(file)
	if strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") || strings.Contains(base, "_test.") ||
		strings.HasPrefix(base, "test_") || strings.HasSuffix(strings.TrimSuffix(base, path.Ext(base)), "Test") {
		return true
	}
	for _, dir := range strings.Split(path.Dir(file), "/") {
		switch dir {
		case "__tests__", "__mocks__", "test", "tests", "e2e", "fixtures", "__snapshots__":
			return true
		}
	}
	return false
}
