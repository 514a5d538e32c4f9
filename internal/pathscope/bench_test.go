//go:build unix

package pathscope

import "testing"

// BenchmarkReadPath is what a read turn asks of pathscope: the facts of its
// targetFile, then the file's content through the no-follow walk. On a VM
// each system call costs microseconds, so the figure follows their count
// (strace -c shows it).
func BenchmarkReadPath(b *testing.B) {
	fx := newFixture(b)
	const target = "src/util/strings.ts"
	b.ReportAllocs()
	for b.Loop() {
		if f := fx.r.Resolve(target); !f.Valid || !f.Regular {
			b.Fatalf("%+v", f)
		}
		if _, err := fx.r.ReadFile(target, 1<<20); err != nil {
			b.Fatal(err)
		}
	}
}
