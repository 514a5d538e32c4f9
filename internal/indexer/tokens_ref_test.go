package indexer

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTermCountsMatchReference checks the allocation-free tokenizer against
// the straightforward one it replaced (kept below), on the test workspace
// and on MCPC_BENCH_TREE if set, plus the cases that exercise each branch.
func TestTermCountsMatchReference(t *testing.T) {
	sources := map[string][]byte{
		"cases": []byte("PasteHandler parse_document_slug adp-data-table HTMLParser pasting dropped x 42 a1 __ $ $$x a_1 " +
			"categories classes running stopped status analysis bus agreed freeing toppings ABCDef Xml2Json v2Api " +
			"ÄÖ café naïve _private __proto__ ies sses s-s x-y-z 0x1F CONSTANT_VALUE iOS"),
	}
	for _, root := range []string{filepath.Join("testdata", "workspace"), os.Getenv("MCPC_BENCH_TREE")} {
		if root == "" {
			continue
		}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.Contains(p, "node_modules") || strings.Contains(p, "/.git/") {
				return nil
			}
			if data, err := os.ReadFile(p); err == nil && len(data) < DefaultMaxFileBytes {
				sources[p] = data
			}
			return nil
		})
	}
	// A counter that can remember only a few runs splits the rest each
	// time; both must count alike.
	forgetful := newTermCounter()
	forgetful.maxRuns = 3
	for _, tc := range []*termCounter{newTermCounter(), forgetful} {
		for name, src := range sources {
			for range 2 { // the second count meets remembered runs
				blob, gotN := tc.count(src)
				got := blob.counts()
				want, wantN := referenceCountTerms(src)
				if gotN != wantN || !maps.Equal(got, want) {
					t.Errorf("%s (max %d runs): %d terms, want %d; maps equal: %v", name, tc.maxRuns, gotN, wantN, maps.Equal(got, want))
				}
			}
		}
	}
}

func referenceCountTerms(src []byte) (map[string]int32, int32) {
	counts := make(map[string]int32, 256)
	var n int32
	forEachRun(src, func(run []byte) {
		referenceEmitTerms(run, func(t string) {
			counts[t]++
			n++
		})
	})
	return counts, n
}

func referenceEmitTerms(run []byte, emit func(string)) {
	if len(run) < 2 {
		return
	}
	var parts [16]string
	ps := referenceSplit(run, parts[:0])
	if len(ps) == 1 {
		if len(ps[0]) >= 2 && !isNumber([]byte(ps[0])) {
			emit(referenceStem(ps[0]))
		}
		return
	}
	if whole := strings.ToLower(string(run)); !isNumber([]byte(whole)) {
		emit(whole)
	}
	for _, p := range ps {
		if len(p) < 2 || isNumber([]byte(p)) {
			continue
		}
		emit(referenceStem(p))
	}
}

func referenceSplit(run []byte, parts []string) []string {
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			parts = append(parts, strings.ToLower(string(run[start:end])))
		}
		start = -1
	}
	for i := 0; i < len(run); i++ {
		c := run[i]
		if c == '_' || c == '-' || c == '$' {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		p := run[i-1]
		switch {
		case isUpper(c) && isLower(p):
			flush(i)
			start = i
		case isUpper(c) && isUpper(p) && i+1 < len(run) && isLower(run[i+1]):
			flush(i)
			start = i
		case isDigit(c) != isDigit(p) && p != '_' && p != '-' && p != '$':
			flush(i)
			start = i
		}
	}
	flush(len(run))
	return parts
}

func referenceStem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 4 && strings.HasSuffix(w, "sses"):
		return w[:n-2]
	case n > 5 && strings.HasSuffix(w, "ing"):
		return referenceUndouble(w[:n-3])
	case n > 4 && strings.HasSuffix(w, "ed"):
		return referenceUndouble(w[:n-2])
	case n > 3 && w[n-1] == 's' && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return referenceStem(w[:n-1])
	case n > 4 && w[n-1] == 'e':
		return w[:n-1]
	}
	return w
}

func referenceUndouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		return w[:n-1]
	}
	if n > 4 && w[n-1] == 'e' {
		return w[:n-1]
	}
	return w
}
