package sandbox

import (
	"bytes"
	"strings"
	"testing"
)

func TestTail(t *testing.T) {
	for _, tc := range []struct {
		note   string
		max    int
		writes []string
		want   string
	}{
		{note: "under the limit", max: 8, writes: []string{"ab", "cd"}, want: "abcd"},
		{note: "exactly the limit", max: 4, writes: []string{"ab", "cd"}, want: "abcd"},
		{note: "one write over", max: 4, writes: []string{"abcdef"}, want: "cdef"},
		{note: "wraps", max: 4, writes: []string{"abc", "def", "g"}, want: "defg"},
		{note: "many small writes", max: 3, writes: strings.Split("abcdefghij", ""), want: "hij"},
		{note: "a large write after wrapping", max: 4, writes: []string{"abc", "de", "0123456789"}, want: "6789"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			tail := NewTail(tc.max)
			total := 0
			for _, w := range tc.writes {
				if n, err := tail.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
				total += len(w)
			}
			if got := string(tail.Bytes()); got != tc.want {
				t.Errorf("Bytes() = %q, want %q", got, tc.want)
			}
			if tail.Total() != int64(total) || tail.Truncated() != (total > tc.max) {
				t.Errorf("Total() = %d, Truncated() = %v; wrote %d into %d", tail.Total(), tail.Truncated(), total, tc.max)
			}
		})
	}
}

func BenchmarkTail(b *testing.B) {
	tail := NewTail(1 << 20)
	chunk := bytes.Repeat([]byte("y\n"), 16<<10)
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		_, _ = tail.Write(chunk)
	}
}
