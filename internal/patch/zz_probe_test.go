package patch

import (
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/mcpc/mcpc/internal/grammar"
)

func BenchmarkProbeParse(b *testing.B) {
	src := []byte(template2000())
	for _, tc := range []struct {
		name  string
		chunk int
		prog  bool
	}{{"rest-prog", 0, true}, {"rest", 0, false}, {"4k", 4096, false}, {"64k", 65536, false}, {"512", 512, false}} {
		b.Run(tc.name, func(b *testing.B) {
			calls := 0
			start := cpuTime()
			for b.Loop() {
				p := sitter.NewParser()
				p.SetLanguage(grammar.Languages[grammar.HTML])
				read := func(i int, _ sitter.Point) []byte {
					calls++
					if i >= len(src) {
						return nil
					}
					if tc.chunk > 0 && i+tc.chunk < len(src) {
						return src[i : i+tc.chunk]
					}
					return src[i:]
				}
				var opts *sitter.ParseOptions
				if tc.prog {
					opts = &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool { return false }}
				}
				t := p.ParseWithOptions(read, nil, opts)
				t.Close()
				p.Close()
			}
			b.ReportMetric(float64(calls)/float64(b.N), "reads/op")
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}
