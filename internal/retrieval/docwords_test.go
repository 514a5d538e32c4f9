package retrieval

import (
	"slices"
	"testing"
)

// TestDocCommentWordIsNoQueryWord: "Javadoc" names the doc comments a task
// edits; code says it only in passing ("(non-Javadoc)"), and a small file
// holding the marker and a throws clause outranked the class whose
// Javadoc @throws tags the task fixes.
func TestDocCommentWordIsNoQueryWord(t *testing.T) {
	ix := indexFiles(t, map[string]string{
		"src/main/java/org/apache/commons/lang3/text/translate/CodePointTranslator.java": `package org.apache.commons.lang3.text.translate;

import java.io.IOException;
import java.io.Writer;

public abstract class CodePointTranslator extends CharSequenceTranslator {
    /* (non-Javadoc) */
    @Override
    public final int translate(final CharSequence input, final int index, final Writer out) throws IOException {
        return translate(Character.codePointAt(input, index), out) ? 1 : 0;
    }

    public abstract boolean translate(int codePoint, Writer out);
}
`,
		"src/main/java/org/apache/commons/lang3/DoubleRange.java": `package org.apache.commons.lang3;

/** Specializes NumberRange for Doubles. */
public final class DoubleRange extends NumberRange<Double> {

    /**
     * Creates a range of the two values, both inclusive.
     *
     * @throws IllegalArgumentException if either element is null.
     */
    public static DoubleRange of(final Double from, final Double to) {
        return new DoubleRange(from, to);
    }

    /**
     * Creates a range from two values.
     *
     * @throws NullPointerException if either element is null.
     */
    private DoubleRange(final Double number1, final Double number2) {
        super(number1, number2, null);
    }
}
`,
	})
	got := files(Rank(ix, Query{Prompt: "Fix Javadoc @throws"}))
	if len(got) == 0 || got[0] != "src/main/java/org/apache/commons/lang3/DoubleRange.java" {
		t.Errorf("rank = %v, want DoubleRange.java first", got)
	}
}

// TestDocCommentWordNamingAFileStays: where the tree configures the tool
// (typedoc.json), the word names something in it and stays a query word.
func TestDocCommentWordNamingAFileStays(t *testing.T) {
	ix := indexFiles(t, map[string]string{
		"typedoc.json": `{"entryPoints": ["src/app"], "out": "docs/typedoc"}`,
		"src/app/statistics/matomo.service.ts": `/** Sends page views to Matomo. */
export class MatomoService {
  track(url: string): void {}
}
`,
	})
	d := derive(ix)
	var terms []string
	for _, qt := range d.withoutDocCommentWords(queryTerms(Query{Prompt: "adds typedoc comments"})) {
		terms = append(terms, qt.term)
	}
	if !slices.Contains(terms, "typedoc") {
		t.Errorf("terms = %v, want typedoc kept: typedoc.json names it", terms)
	}
	for _, qt := range derive(indexFiles(t, map[string]string{"src/app/a.ts": "export const a = 1;\n"})).withoutDocCommentWords(queryTerms(Query{Prompt: "adds typedoc comments"})) {
		if qt.term == "typedoc" {
			t.Errorf("typedoc kept in a tree that names no file for it")
		}
	}
}
