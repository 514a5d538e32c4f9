package retrieval

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpc/mcpc/internal/indexer"
)

// libIndex indexes a small Java and Python library laid out like
// commons-lang and flask: classes whose Javadoc or docstring says what a
// commit subject says, utility classes that share many words, and tests.
func libIndex(t testing.TB) *indexer.Index {
	t.Helper()
	files := map[string]string{
		"src/main/java/org/apache/commons/lang3/time/StopWatch.java": `package org.apache.commons.lang3.time;

/** Provides a convenient API for timings. Split times are formatted in millis. */
public class StopWatch {
    /** Formats the split time. */
    public String formatSplitTime() { return DurationFormatUtils.formatDurationHMS(getSplitDuration()); }
    long getSplitDuration() { return 0; }
}
`,
		"src/main/java/org/apache/commons/lang3/time/DurationFormatUtils.java": `package org.apache.commons.lang3.time;

/** Duration formatting utilities: format a duration as hours, minutes, seconds and millis. */
public class DurationFormatUtils {
    public static String formatDurationHMS(long durationMillis) { return format(durationMillis); }
    static String format(long millis) { return ""; }
}
`,
		"src/main/java/org/apache/commons/lang3/StringUtils.java": `package org.apache.commons.lang3;

/** Operations on String. */
public class StringUtils {
    public static boolean isEmpty(CharSequence cs) { return cs == null || cs.length() == 0; }
}
`,
		"src/test/java/org/apache/commons/lang3/time/StopWatchTest.java": `package org.apache.commons.lang3.time;

public class StopWatchTest { void testFormatSplitTime() { new StopWatch().formatSplitTime(); } }
`,
		"src/flask/json/provider.py": `"""Providers turn Python objects into a response body and back."""


class DefaultProvider:
    def dumps(self, obj):
        return str(obj)
`,
		"src/flask/app.py": `from .json.provider import DefaultProvider


class Flask:
    json_provider_class = DefaultProvider
`,
	}
	root := filepath.Join(t.TempDir(), "ws")
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "index.db")+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ix, err := indexer.Open(db, indexer.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return ix
}

func TestTextLane(t *testing.T) {
	ix := libIndex(t)
	d := derive(ix)
	all := func(int32) bool { return true }
	noTests := func(doc int32) bool { return !isTestFile(d.corpus.Files[doc]) }
	tests := []struct {
		note   string
		prompt string
		keep   func(int32) bool
		want   string // first file of the lane
		absent string // a file the lane must not hold
	}{
		{
			note:   "path parts count as text: a folder and file name the prompt says",
			prompt: "json provider dumps",
			keep:   all,
			want:   "src/flask/json/provider.py",
		},
		{
			note:   "prose of a Javadoc meets the prompt's words",
			prompt: "Keep StopWatch.formatSplitTime from clamping splits to int millis",
			keep:   noTests,
			want:   "src/main/java/org/apache/commons/lang3/time/StopWatch.java",
			absent: "src/test/java/org/apache/commons/lang3/time/StopWatchTest.java",
		},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			got := d.textLane(queryTerms(Query{Prompt: tt.prompt}), tt.keep)
			var names []string
			for _, s := range got {
				names = append(names, d.corpus.Files[s.doc])
			}
			if len(names) == 0 || names[0] != tt.want {
				t.Errorf("text lane = %v, want %s first", names, tt.want)
			}
			if tt.absent != "" && slices.Contains(names, tt.absent) {
				t.Errorf("text lane holds %s, which keep refused: %v", tt.absent, names)
			}
		})
	}
}

func TestFuseByRank(t *testing.T) {
	ds := func(docs ...int32) []docScore {
		var out []docScore
		for _, d := range docs {
			out = append(out, docScore{doc: d, lanes: []string{"lexical"}})
		}
		return out
	}
	order := func(s []docScore) []int32 {
		var out []int32
		for _, x := range s {
			out = append(out, x.doc)
		}
		return out
	}
	seq := func(from, to int32) []docScore {
		var docs []int32
		for d := from; d <= to; d++ {
			docs = append(docs, d)
		}
		return ds(docs...)
	}
	// With rrfK 20 and textWeight 0.5, the text lane's first file alone
	// scores 0.5/21 = 1/42: the 22nd place of the fused order (ties by
	// document).
	head := append([]int32{}, order(seq(1, 22))...)
	tests := []struct {
		note        string
		fused, text []docScore
		pinned      map[int32]bool
		want        []int32
	}{
		{
			note:  "a file both orders hold moves up",
			fused: ds(1, 2, 3), text: ds(3),
			want: []int32{3, 1, 2},
		},
		{
			note:  "a file only the text lane holds enters after the fused order's head",
			fused: seq(1, 25), text: ds(100),
			want: append(append(head, 100), 23, 24, 25),
		},
		{
			note:  "a pinned file keeps the head whatever the text lane says",
			fused: ds(1, 2, 3), text: ds(3, 1),
			pinned: map[int32]bool{2: true},
			want:   []int32{2, 1, 3},
		},
		{
			note:  "without a text lane the fused order is kept",
			fused: ds(3, 1, 2),
			want:  []int32{3, 1, 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			got := fuseByRank(tt.fused, tt.text, tt.pinned)
			if !slices.Equal(order(got), tt.want) {
				t.Errorf("order = %v, want %v", order(got), tt.want)
			}
			for _, s := range got {
				if s.doc == 100 && !slices.Equal(s.lanes, []string{"text"}) {
					t.Errorf("a file only the text lane found should say so: %v", s.lanes)
				}
			}
		})
	}
}

func TestNamedIdentifierPinsItsFile(t *testing.T) {
	ix := libIndex(t)
	got := files(Rank(ix, Query{Prompt: "Keep StopWatch.formatSplitTime from clamping splits to int millis"}))
	if len(got) == 0 || got[0] != "src/main/java/org/apache/commons/lang3/time/StopWatch.java" {
		t.Errorf("rank = %v, want the file defining formatSplitTime first", got)
	}
	if slices.Contains(got, "src/test/java/org/apache/commons/lang3/time/StopWatchTest.java") {
		t.Errorf("the test was not asked for: %v", got)
	}
}
