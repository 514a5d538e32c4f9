package retrieval

import (
	"regexp"
	"strings"
)

// Locale registry: a prompt that names a locale the tree has no catalogue
// for ("Add traditional Chinese (zh-TW) i18n support") adds a language,
// and besides the new catalogue (an added file, not in the tree) the work
// goes to the file that lists the languages the application offers: an
// Angular app's default config (`{ code: 'de', label: 'Deutsch' }` for
// each), a React app's i18n index, a Django settings' LANGUAGES. That
// file holds the codes of the tree's catalogues, most of them, and
// rarely a word of the prompt (dspace-angular's default-app-config.ts
// ranked 277th for that prompt). The lane gives each source file the
// share of the catalogues' languages it names, from half of them
// (registryShare), and only when a locale the prompt names is new: for
// "Fix German label" the work is in the German catalogue and its users.
// Locales are read by a language's name or by a code with its region in
// capitals (zh-TW, pt_BR), not by namedLocales' looser pattern, which
// takes "to-do" for a locale: a false trigger here would lift a file.
//
// Measured on all ten sets (2026-12-04): dspace-angular R@5/R@10/R@20
// and pack recall +0.025 each (0.515/0.652/0.719/0.756 ->
// 0.540/0.677/0.744/0.781: default-app-config.ts 2nd, behind the media
// viewer's language helper, which maps every code to its name); no other
// set has such a prompt, none moved.
//
// registryShare is how many of the tree's catalogue languages a file
// must name to list the languages: a component that switches between two
// of them, or a test with three, does not.
const registryShare = 0.5

// minRegistryLocales: a tree with fewer catalogues has no list to read.
const minRegistryLocales = 4

// localeRegistryLane scores the files that list the tree's locales, for
// a prompt that names a locale the tree has no catalogue of.
func (d *derived) localeRegistryLane(prompt string) map[int32]float64 {
	named := newLocaleNames(prompt)
	if len(named) == 0 {
		return nil
	}
	kinds := d.kinds()
	have := map[string]bool{}  // full codes of the catalogues
	langs := map[string]bool{} // their language parts
	catalogue := make(map[int32]bool)
	for i, f := range d.corpus.Files {
		code, ok := localeOf(f)
		if !ok || code == "" {
			continue
		}
		catalogue[int32(i)] = true
		have[code] = true
		langs[strings.SplitN(code, "_", 2)[0]] = true
	}
	if len(langs) < minRegistryLocales {
		return nil
	}
	fresh := false
	for code := range named {
		if !isDefaultLocale(code) && !have[code] && (strings.Contains(code, "_") || !langs[code]) {
			fresh = true
		}
	}
	if !fresh {
		return nil
	}
	held := map[int32]int{}
	for lang := range langs {
		for _, p := range d.corpus.Postings(lang) {
			held[p.Doc]++
		}
	}
	out := map[int32]float64{}
	need := registryShare * float64(len(langs))
	for doc, n := range held {
		if float64(n) < need || catalogue[doc] || kinds.test[doc] {
			continue
		}
		out[doc] = float64(n) / float64(len(langs))
	}
	return normalise(out)
}

// regionLocaleRE is a locale with its region as locales are written,
// the region in capitals (zh-TW, pt_BR): "to-do" and "re-run" are words.
var regionLocaleRE = regexp.MustCompile(`\b[a-z]{2,3}[-_][A-Z]{2}\b`)

// newLocaleNames is the locales a prompt names by a language's name
// ("German") or a code with its region ("zh-TW"), normalised.
func newLocaleNames(prompt string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(prompt)) {
		if code, ok := languageNames[strings.Trim(w, ".,;:!?()'\"`")]; ok {
			out[code] = true
		}
	}
	for _, w := range regionLocaleRE.FindAllString(prompt, -1) {
		out[normLocale(w)] = true
	}
	return out
}
