package retrieval

import (
	"strings"

	"github.com/mcpc/mcpc/internal/indexer"
)

// Doc-comment words: "Javadoc", "docstring", "JSDoc", "godoc" name the
// comments that document code, the kind of text a task edits ("Fix
// Javadoc @throws", "Javadoc: Remove obsolete comments and clarify",
// "Fix broken func directives in docstrings"), not a place in the code.
// Code says the word only in passing: commons-lang's sources hold
// "Javadoc" in 33 files, as "(non-Javadoc)" markers, links to javadocs
// and "see class Javadoc", and for a vague subject those were the best
// matches of the lexical lane (the translate/ package's small files first,
// while the Range classes and ArrayUtils.java the changes went to ranked
// 38th and 33rd). So the word is no query word, as "docs" is not; the
// prompt's other words and the history lanes place the task. Where the
// tree names a file or folder for the word (a typedoc.json, Maven's
// src/main/javadoc) the tool is configured there and a task may be about
// that setup: there the word stays.
var docCommentWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`javadoc javadocs jsdoc tsdoc typedoc docstring docstrings godoc rustdoc kdoc phpdoc`) {
		for _, t := range indexer.Tokenize(w) {
			if !stopwords[t] {
				docCommentWords[t] = true
			}
		}
	}
}

// withoutDocCommentWords drops the doc-comment words no path of the tree
// holds from terms.
func (d *derived) withoutDocCommentWords(terms []queryTerm) []queryTerm {
	out := terms[:0:0]
	for _, qt := range terms {
		if docCommentWords[qt.term] && len(d.pathTerms[qt.term]) == 0 {
			continue
		}
		out = append(out, qt)
	}
	return out
}
