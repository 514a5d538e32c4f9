package indexer

import (
	"context"
	"os"
	"testing"

	"github.com/mcpc/mcpc/internal/fswatch"
)

// BenchmarkWalkLarge is the first walk of a new process over the real tree
// named by MCPC_BENCH_TREE: no previous listings, every directory read,
// every .gitignore parsed and every entry matched against the rules. The
// "watch" case also adds each directory to a new inotify watcher, as a
// serving process's first refresh does. The "stored" case is a new
// process's first walk when a previous one left its listings
// (listingcache.go): the blob decoded, then every directory reused.
func BenchmarkWalkLarge(b *testing.B) {
	root := os.Getenv("MCPC_BENCH_TREE")
	if root == "" {
		b.Skip("MCPC_BENCH_TREE not set")
	}
	for _, watch := range []bool{false, true} {
		name := "nowatch"
		if watch {
			name = "watch"
		}
		b.Run(name, func(b *testing.B) {
			var files int
			b.ReportAllocs()
			defer reportCPU(b, cpuTime())
			for b.Loop() {
				w := &walker{root: root, maxBytes: DefaultMaxFileBytes}
				if watch {
					fw, err := fswatch.New()
					if err != nil {
						b.Skip("no watcher:", err)
					}
					w.watch = fw
				}
				if err := w.walk(context.Background(), nil); err != nil {
					b.Fatal(err)
				}
				if w.watch != nil {
					if err := w.watch.Close(); err != nil {
						b.Fatal(err)
					}
				}
				files = len(w.files)
			}
			b.ReportMetric(float64(files), "files")
		})
	}
	b.Run("stored", func(b *testing.B) {
		first := &walker{root: root, maxBytes: DefaultMaxFileBytes}
		if err := first.walk(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
		blob := encodeListings(first.next)
		var reused int
		b.ReportAllocs()
		defer reportCPU(b, cpuTime())
		for b.Loop() {
			prev, err := decodeListings(blob, rootIgnores(nil))
			if err != nil {
				b.Fatal(err)
			}
			w := &walker{root: root, maxBytes: DefaultMaxFileBytes, prev: prev}
			if err := w.walk(context.Background(), nil); err != nil {
				b.Fatal(err)
			}
			reused = w.reused
		}
		b.ReportMetric(float64(reused), "reused")
		b.ReportMetric(float64(len(blob)), "blob-bytes")
	})
}
