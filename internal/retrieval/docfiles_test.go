package retrieval

import (
	"slices"
	"testing"
)

func TestIsDocSource(t *testing.T) {
	tests := []struct {
		note, file string
		want       bool
	}{
		{note: "package javadoc", file: "src/main/java/org/apache/commons/lang3/time/package-info.java", want: true},
		{note: "maven site page", file: "src/site/xdoc/userguide.xml", want: true},
		{note: "maven site report of a module", file: "dspace-api/src/site/resources/report.html", want: true},
		{note: "module descriptor is code", file: "src/main/java/module-info.java"},
		{note: "a class", file: "src/main/java/org/apache/commons/lang3/time/StopWatch.java"},
		{note: "a site package of code", file: "app/site/views.py"},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			if got := isDocSource(tt.file); got != tt.want {
				t.Errorf("isDocSource(%q) = %v, want %v", tt.file, got, tt.want)
			}
		})
	}
}

// TestPackageInfoRanksBehindTheClasses: a package-info.java says in prose
// what every class of its package does, and so holds the words of a task
// about any of them; the change goes to the class.
func TestPackageInfoRanksBehindTheClasses(t *testing.T) {
	ix := indexFiles(t, map[string]string{
		"src/main/java/org/apache/commons/lang3/concurrent/package-info.java": `/**
 * Provides support classes for multi-threaded programming.
 * A circuit breaker short-circuits calls once a threshold of failures
 * is reached; a timed semaphore limits calls per period.
 */
package org.apache.commons.lang3.concurrent;
`,
		"src/main/java/org/apache/commons/lang3/concurrent/ThresholdCircuitBreaker.java": `package org.apache.commons.lang3.concurrent;

/** A circuit breaker that opens once a threshold is reached. */
public class ThresholdCircuitBreaker {
    private final long threshold;

    public ThresholdCircuitBreaker(final long threshold) {
        this.threshold = threshold;
    }

    public boolean incrementAndCheckState(final Long increment) {
        return increment > threshold;
    }
}
`,
	})
	got := files(Rank(ix, Query{Prompt: "Clarify the multi-threaded programming support of the circuit breaker"}))
	info := slices.Index(got, "src/main/java/org/apache/commons/lang3/concurrent/package-info.java")
	class := slices.Index(got, "src/main/java/org/apache/commons/lang3/concurrent/ThresholdCircuitBreaker.java")
	if class < 0 || (info >= 0 && info < class) {
		t.Errorf("rank = %v, want the class before package-info.java", got)
	}
}
