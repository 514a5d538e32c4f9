package indexer

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpc/mcpc/internal/grammar"
)

// benchSource is a file of the benchmark tree, read.
type benchSource struct {
	path, lang string
	src        []byte
}

// largeSources reads the files a cold index of MCPC_BENCH_TREE would read
// (the walk's file set); withGrammar keeps only those a grammar parses.
func largeSources(b *testing.B, withGrammar bool) []benchSource {
	root := os.Getenv("MCPC_BENCH_TREE")
	if root == "" {
		b.Skip("MCPC_BENCH_TREE not set")
	}
	w := &walker{root: root, maxBytes: DefaultMaxFileBytes}
	if err := w.walk(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
	var files []benchSource
	for _, c := range w.files {
		lang := grammar.Of(c.Rel)
		if withGrammar && lang == "" {
			continue
		}
		src, err := readRegular(filepath.Join(root, c.Rel), DefaultMaxFileBytes)
		if err != nil || !validUTF8(src) {
			continue
		}
		files = append(files, benchSource{path: c.Rel, lang: lang, src: src})
	}
	return files
}

// BenchmarkExtractLarge parses every file of MCPC_BENCH_TREE that has a
// grammar and extracts its facts, on one goroutine: the parse-and-walk
// share of a cold index, reported in CPU time.
func BenchmarkExtractLarge(b *testing.B) {
	files := largeSources(b, true)
	ps := newParserSet()
	defer ps.close()
	b.ResetTimer()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		for _, src := range files {
			extract(ps, &fileFacts{Path: src.path, Lang: src.lang}, src.src)
		}
	}
}

// BenchmarkParseLarge is BenchmarkExtractLarge's parse alone.
func BenchmarkParseLarge(b *testing.B) {
	files := largeSources(b, true)
	ps := newParserSet()
	defer ps.close()
	b.ResetTimer()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		for _, src := range files {
			if t := ps.parse(src.lang, src.src); t != nil {
				t.Close()
			}
		}
	}
}

// BenchmarkTermCountLarge counts the terms of every file of MCPC_BENCH_TREE
// on one counter, as one indexing worker does.
func BenchmarkTermCountLarge(b *testing.B) {
	files := largeSources(b, false)
	tc := newTermCounter()
	b.ResetTimer()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		for _, src := range files {
			tc.count(src.src)
		}
	}
}
