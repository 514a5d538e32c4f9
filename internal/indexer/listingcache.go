package indexer

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/mcpc/mcpc/internal/buildid"
)

// A process's first walk read every directory: at 47,550 files in 11,353
// directories that is 0.4-0.5 CPU-s, on the path to a new serving
// process's first turn. A walk that holds the previous walk's listings
// (walker.reuse) reads no directory whose modification time held, parses
// no .gitignore and matches no rule: 0.25-0.29 CPU-s there, the files'
// stats being all that is left. A long-lived Index kept its listings in
// memory only, so each new process paid for the full walk again. Now a
// process whose walks listed anything leaves its listings at Close
// (idx_listings), and the next process's first walk starts from them.
//
// Listings describe the file system, not the database: any process's are
// valid for any other, since reuse trusts one only where the directory's
// modification and change times and .gitignore stamp still hold (and not
// within racyWindow of the listing). What else decides a listing's entries is
// mcpc's code (the default excludes, binary extensions, staged names),
// the root and the configured excludes: the blob's key holds those, and a
// blob of another key is not read.

const listingsSchema = `
CREATE TABLE IF NOT EXISTS idx_listings (
	id   INTEGER PRIMARY KEY CHECK (id = 1),
	key  TEXT NOT NULL,
	data BLOB NOT NULL
);
`

// listingsVersion changes with the blob's layout.
const listingsVersion = 2

// listingsKey is what stored listings are valid for.
func listingsKey(root string, extra []string, maxBytes int64) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d\n%s\n%s\n%d\n%q\n", listingsVersion, buildid.Identity(), root, maxBytes, extra)
	return hex.EncodeToString(h.Sum(nil))
}

// storedListings returns the listings a previous process left, or nil.
// A missing, foreign or damaged blob only costs the walk its reads.
func (ix *Index) storedListings() map[string]*listing {
	var key string
	var data []byte
	err := scanRows(context.Background(), ix.db, `SELECT key, data FROM idx_listings WHERE id = 1`, func(r *sql.Rows) error {
		return r.Scan(&key, &data)
	})
	if err != nil || key != listingsKey(ix.opts.Root, ix.opts.Exclude, ix.opts.MaxFileBytes) {
		return nil
	}
	listings, err := decodeListings(data, rootIgnores(ix.opts.Exclude))
	if err != nil {
		return nil
	}
	return listings
}

// leaveListings writes the last walk's listings for the next process when
// a walk of this one listed a directory; the caller holds refreshMu. A
// failure costs the next process only its reads: it is not Close's error.
func (ix *Index) leaveListings() {
	if !ix.listingsChanged || ix.listings == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
	defer cancel()
	_, err := ix.db.ExecContext(ctx, `INSERT INTO idx_listings (id, key, data) VALUES (1, ?, ?)
		ON CONFLICT (id) DO UPDATE SET key = excluded.key, data = excluded.data`,
		listingsKey(ix.opts.Root, ix.opts.Exclude, ix.opts.MaxFileBytes), encodeListings(ix.listings))
	if err != nil {
		ix.mu.Lock()
		ix.viewCacheErr = fmt.Errorf("indexer: store the listings: %w", err)
		ix.mu.Unlock()
	}
}

// encodeListings lays the listings out in path order, so that a
// directory's parent comes before it: a count, then per directory its
// path, modification and change times, listing time, .gitignore stamp, the rules it
// added (their text plus one, 0 for none), its subdirectories, files,
// problems and skipped entries. What a walk derives from the files' stats
// (cands, epoch) is not kept: a new process stats them again.
func encodeListings(listings map[string]*listing) []byte {
	rels := make([]string, 0, len(listings))
	for rel := range listings {
		rels = append(rels, rel)
	}
	slices.Sort(rels)
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(rels)))
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	strs := func(ss []string) {
		b = binary.AppendUvarint(b, uint64(len(ss)))
		for _, s := range ss {
			str(s)
		}
	}
	for _, rel := range rels {
		l := listings[rel]
		str(rel)
		for _, v := range [...]int64{l.mtime, l.ctime, l.listedAt, l.ignore.size, l.ignore.mtime} {
			b = binary.AppendVarint(b, v)
		}
		if l.rules != nil {
			b = binary.AppendUvarint(b, uint64(len(l.rules.text))+1)
			b = append(b, l.rules.text...)
		} else {
			b = binary.AppendUvarint(b, 0)
		}
		strs(l.dirs)
		strs(l.files)
		b = binary.AppendUvarint(b, uint64(len(l.problems)))
		for _, p := range l.problems {
			str(p.File)
			str(p.Kind)
			str(p.Message)
		}
		b = binary.AppendUvarint(b, uint64(l.skipped))
	}
	return b
}

var errListingsBlob = errors.New("indexer: malformed listings blob")

// decodeListings reads what encodeListings wrote and rebuilds each
// directory's ignore stack from its parent's, root being the root's rules.
// Every length is bounded by what is left and every directory but the root
// must follow its parent: a damaged blob is an error, never a wrong walk.
func decodeListings(b []byte, root *ignoreSet) (map[string]*listing, error) {
	bad := false
	uint := func() uint64 {
		v, k := binary.Uvarint(b)
		if k <= 0 {
			bad = true
			return 0
		}
		b = b[k:]
		return v
	}
	num := func() int64 {
		v, k := binary.Varint(b)
		if k <= 0 {
			bad = true
			return 0
		}
		b = b[k:]
		return v
	}
	bytesOf := func(n uint64) []byte {
		if bad || n > uint64(len(b)) {
			bad = true
			return nil
		}
		s := b[:n]
		b = b[n:]
		return s
	}
	str := func() string { return string(bytesOf(uint())) }
	strs := func() []string {
		n := uint()
		if bad || n > uint64(len(b)) {
			bad = true
			return nil
		}
		ss := make([]string, n)
		for i := range ss {
			ss[i] = str()
		}
		return ss
	}
	n := uint()
	if bad || n > uint64(len(b)) {
		return nil, errListingsBlob
	}
	listings := make(map[string]*listing, n)
	for i := range n {
		rel := str()
		l := &listing{mtime: num(), ctime: num(), listedAt: num(), ignore: stamp{size: num(), mtime: num()}}
		rules := uint()
		var own []byte
		if rules > 0 {
			own = bytesOf(rules - 1)
		}
		l.dirs, l.files = strs(), strs()
		np := uint()
		if bad || np > uint64(len(b)) {
			return nil, fmt.Errorf("%w at directory %d", errListingsBlob, i)
		}
		for range np {
			l.problems = append(l.problems, Problem{File: str(), Kind: str(), Message: str()})
		}
		l.skipped = int(uint())
		if bad {
			return nil, fmt.Errorf("%w at directory %d", errListingsBlob, i)
		}
		stack := ignoreStack{root}
		if rel != "" {
			parent := path.Dir(rel)
			if parent == "." {
				parent = ""
			}
			up := listings[parent]
			if up == nil || rel != path.Clean(rel) || rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/") || listings[rel] != nil {
				return nil, fmt.Errorf("%w: %q is no directory below a parent before it", errListingsBlob, rel)
			}
			stack = up.stack
		}
		if rules > 0 {
			l.rules = parseIgnore(rel, own)
			stack = append(stack[:len(stack):len(stack)], l.rules)
		}
		l.stack = stack
		listings[rel] = l
	}
	if len(b) != 0 {
		return nil, errListingsBlob
	}
	return listings, nil
}
