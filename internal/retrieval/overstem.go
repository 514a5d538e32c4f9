package retrieval

import (
	"strings"

	"github.com/mcpc/mcpc/internal/indexer"
)

// The index stems its terms, and the stopword test runs on stems so that
// an inflection of a stopword ("fixing", "updating", "handled") is one
// too. But a stemmer also cuts words that are no inflection of a stopword
// down to one: Porter's "settings" is "set", and "Update settings to use
// the more specific ImproperlyConfigured exception" lost the one word
// that names its file (hc/settings.py ranked 68th). A word's own form
// decides then: a word that is no stopword itself, whose stem is one but
// shorter than the word by more than an inflection's ending, keeps its
// stem as a query term.

// inflectionSlack is the most letters an inflection adds to a stem:
// "-ings" of "handlings", "-ed" of "handled", "-es" of "fixes".
const inflectionSlack = 4

// overstemmed gives the stems of text's words that the stemmer cut to a
// stopword although the word is none: the stems the query keeps.
func overstemmed(text string) map[string]bool {
	var out map[string]bool
	for _, w := range wordRe.FindAllString(text, -1) {
		lw := strings.ToLower(w)
		if stopwords[lw] {
			continue
		}
		toks := indexer.Tokenize(w)
		if len(toks) != 1 {
			continue // a compound's parts are judged as parts
		}
		t := toks[0]
		if stopwords[t] && len(lw)-len(t) > inflectionSlack {
			if out == nil {
				out = map[string]bool{}
			}
			out[t] = true
		}
	}
	return out
}
