package secrets

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/mcpc/mcpc/examples"
)

// exampleFiles is the example workspace's files (about 5 KB in 13 files).
func exampleFiles(b *testing.B) [][]byte {
	b.Helper()
	var out [][]byte
	err := fs.WalkDir(examples.FS, "angular-shop", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := examples.FS.ReadFile(p)
		out = append(out, data)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// pack200 is 200 source files of 6 KB each (the example's sources repeated,
// each file made distinct), a large pack of ordinary code.
func pack200(b *testing.B) [][]byte {
	b.Helper()
	var sources [][]byte
	for _, f := range exampleFiles(b) {
		if !bytes.Contains(f, []byte(`"validation"`)) { // not the config
			sources = append(sources, f)
		}
	}
	out := make([][]byte, 200)
	for i := range out {
		var buf bytes.Buffer
		for j := 0; buf.Len() < 6<<10; j++ {
			fmt.Fprintf(&buf, "// part %d of file %d\n", j, i)
			buf.Write(sources[(i+j)%len(sources)])
		}
		out[i] = buf.Bytes()
	}
	return out
}

// scanAll scans files as the controller's markSecrets does: one worker per
// core.
func scanAll(d *Detector, files [][]byte) int {
	next := make(chan []byte)
	var wg sync.WaitGroup
	var mu sync.Mutex
	found := 0
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for f := range next {
				n := len(d.Scan(f))
				mu.Lock()
				found += n
				mu.Unlock()
			}
		})
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
	return found
}

func benchScan(b *testing.B, files [][]byte) {
	d := detector(b)
	total := 0
	for _, f := range files {
		total += len(f)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if n := scanAll(d, files); n != 0 {
			b.Fatalf("%d findings in ordinary code", n)
		}
	}
}

// BenchmarkScanExample is the detector's share of initialize_work on the
// example workspace: every file scanned, as if all were candidates.
func BenchmarkScanExample(b *testing.B) { benchScan(b, exampleFiles(b)) }

// BenchmarkScanPack200 is the detector's share of building a 200-file pack.
func BenchmarkScanPack200(b *testing.B) { benchScan(b, pack200(b)) }

// BenchmarkRedactClean is a read of a 6 KB file that changed since the pack
// was scanned (an unchanged one costs a hash comparison only).
func BenchmarkRedactClean(b *testing.B) {
	d := detector(b)
	f := pack200(b)[0]
	b.SetBytes(int64(len(f)))
	b.ReportAllocs()
	for b.Loop() {
		if r := d.Redact(f); len(r) != len(f) {
			b.Fatal("ordinary code redacted")
		}
	}
}

// BenchmarkRedactStuffedBudget is the worst read: a changed file of 256 KiB
// built to make every rule run, redacted within the controller's read
// budget (250 ms). The figure is the budget plus at most one piece.
func BenchmarkRedactStuffedBudget(b *testing.B) {
	d := detector(b)
	f := keywordStuffed(d, 256<<10)
	b.ReportAllocs()
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
		d.RedactContext(ctx, f)
		cancel()
	}
}

// BenchmarkScanStuffedPiece is one piece of such content: the most a scan
// runs past its deadline.
func BenchmarkScanStuffedPiece(b *testing.B) {
	d := detector(b)
	f := keywordStuffed(d, chunkBytes)
	b.ReportAllocs()
	for b.Loop() {
		d.Scan(f)
	}
}

// BenchmarkNewDetector is the one-time cost of compiling the rule set.
func BenchmarkNewDetector(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewDetector(); err != nil {
			b.Fatal(err)
		}
	}
}
