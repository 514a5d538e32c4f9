package graph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/mcpc/mcpc/internal/buildid"
)

// Versioned is a CodeIndex that says when what it serves changed
// (indexer.Index.Generation). With one, a Builder's Sync skips the whole
// build while neither the index nor a file the builder reads itself
// changed: at 48,000 files the build (regrouping every symbol, edge and
// usage by file, fingerprinting every file, checking every edge) cost about
// 1.5 CPU-s a turn for a graph that was already up to date.
type Versioned interface {
	Generation() uint64
}

// sourceStamp is what one successful sync was built from: the index's
// generation and the stat of every file the builder reads from disk
// itself (seed files and folders, prose documents, contract files). Equal
// stamps mean a build would make the same facts.
type sourceStamp struct {
	store      Store
	generation uint64
	// read are the indexed files the builder reads itself (prose and
	// contracts): fixed while the generation holds, since they come from
	// the index's file list.
	read  []string
	stats []fileStat
}

// fileStat is the part of a file's stat that changes when it is written,
// created or removed. A folder's stat changes when an entry is added or
// removed in it.
type fileStat struct {
	path    string
	missing bool
	mode    fs.FileMode
	size    int64
	modTime int64 // nanoseconds
}

// sourceFiles lists the indexed files the builder reads from disk: prose
// documents and contract files.
func (bl *Builder) sourceFiles(ix CodeIndex) []string {
	var out []string
	for _, f := range ix.Files() {
		if bl.isContract(f) || matchAny(bl.o.Prose, f) {
			out = append(out, f)
		}
	}
	return out
}

// stamp takes the stamp a sync would be built from, before the build reads
// anything, so a file written while the build runs makes the next stamp
// differ. prev, when of the same generation, lends its list of read files.
func (bl *Builder) stamp(s Store, ix CodeIndex, v Versioned, prev *sourceStamp) *sourceStamp {
	st := &sourceStamp{store: s, generation: v.Generation()}
	if prev != nil && prev.generation == st.generation {
		st.read = prev.read
	} else {
		st.read = bl.sourceFiles(ix)
	}
	root := ix.Root()
	for _, f := range st.read {
		st.stats = append(st.stats, statOf(root, f))
	}
	st.stats = append(st.stats, bl.contractGlobStats(root)...)
	st.stats = append(st.stats, seedStats(root)...)
	return st
}

// contractGlobStats stats what graph.contracts globs match now, indexed or
// not: a contract file appearing under node_modules changes the facts
// without changing the index.
func (bl *Builder) contractGlobStats(root string) []fileStat {
	var out []fileStat
	for _, pat := range bl.o.Contracts {
		if !filepath.IsLocal(filepath.FromSlash(pat)) {
			continue // reported by the build, never read
		}
		matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(pat))) // a bad pattern matches nothing, both times
		sort.Strings(matches)
		for _, m := range matches {
			if rel, err := filepath.Rel(root, m); err == nil {
				out = append(out, statOf(root, filepath.ToSlash(rel)))
			}
		}
	}
	return out
}

// seedStats stats the seed folder and everything under it, as LoadSeeds
// walks it.
func seedStats(root string) []fileStat {
	dir := filepath.Join(root, filepath.FromSlash(SeedDir))
	out := []fileStat{statOf(root, SeedDir)}
	if out[0].missing {
		return out
	}
	// A walk error (a folder that cannot be read) is in the stamp as the
	// entries it hid: the stamp differs from one that read them.
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		rel, relErr := filepath.Rel(root, p)
		if relErr == nil {
			out = append(out, statOf(root, filepath.ToSlash(rel)))
		}
		return nil
	})
	return out
}

func statOf(root, rel string) fileStat {
	info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return fileStat{path: rel, missing: true}
	}
	return fileStat{path: rel, mode: info.Mode(), size: info.Size(), modTime: info.ModTime().UnixNano()}
}

// holds reports whether a sync stamped st may be skipped after one stamped
// prev: same store, same index generation, same files on disk.
func (st *sourceStamp) holds(prev *sourceStamp) bool {
	return prev != nil && st.store == prev.store && st.generation == prev.generation && slices.Equal(st.stats, prev.stats)
}

// Digester is a CodeIndex that identifies its content across processes
// (indexer.Index.Digest). With one, a Builder's first Sync compares the
// stamp the last sync to the store wrote (SourceSyncStamp) with its own
// and builds nothing when they are equal: a new serve process on a
// 48,000-file tree otherwise built the whole graph (some 3 CPU-s) on its
// first turn to find it already written.
type Digester interface {
	Digest() string
}

// StampReader is a Store that reads one source's hash without reading
// every group's (the embedded graph): a new process checks the sync
// stamp with it first, where reading all 47,553 hashes of a 47,550-file
// graph to find that one row cost 40-50 ms of its first turn.
type StampReader interface {
	// SourceHash returns source's stored hash ("" when it has none) and
	// how many sources are stored.
	SourceHash(ctx context.Context, source string) (hash string, sources int, err error)
}

// SourceSyncStamp is the source whose stored hash is the persistent stamp
// of the sync that wrote the graph (persistentKey); it has no facts.
const SourceSyncStamp = "sync-stamp"

// projectConfigFiles are what the index reads besides the files it holds
// (import aliases): they change its edges without changing a file's hash.
var projectConfigFiles = []string{"tsconfig.base.json", "tsconfig.json", "jsconfig.json"}

// buildOptions are the options that shape what a build makes, as JSON:
// BatchRows and HeldRows say how a sync writes, not what, and MemoFile is
// not encoded.
func (bl *Builder) buildOptions() []byte {
	o := bl.o
	o.BatchRows, o.HeldRows = 0, 0
	opts, _ := json.Marshal(o) // plain strings and numbers: cannot fail
	return opts
}

// persistentKey is the stamp a later process compares: this program, the
// options, the index's digest and every file the builder reads.
func (bl *Builder) persistentKey(st *sourceStamp, digest, root string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n", buildid.Identity(), bl.buildOptions(), digest)
	stats := slices.Clone(st.stats)
	for _, f := range projectConfigFiles {
		stats = append(stats, statOf(root, f))
	}
	for _, s := range stats {
		fmt.Fprintf(h, "%q %v %o %d %d\n", s.path, s.missing, uint32(s.mode), s.size, s.modTime)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}
