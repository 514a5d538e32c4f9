package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gobwas/glob"
)

// keyScanBytes bounds the files read for key material; larger ones are
// left to the name rules (as the pack's own scan does).
const keyScanBytes = 1 << 20

// racyWindow is how old a file's last change must be for its verdict to be
// kept: well past the coarsest clock tick of Linux's file systems.
var racyWindow = 2 * time.Second // a variable for tests of what the cache keeps

// masker finds the worktree's secret files before each run: by name (the
// pack policy's secret globs) and by content (key material). A file is
// read again only when its stamp changed; with a ScanCache the verdicts
// outlive the process, so a new process reads only what changed since the
// last one ran a command, not the whole worktree.
type masker struct {
	root  string
	key   KeyMatcher
	keyID string // the matcher's identity in the ScanCache; "" keeps no cache
	cache ScanCache

	mu      sync.Mutex
	globs   []string
	globsID string // globsIdentity(globs)
	matcher []*glob.Pattern
	scanned map[string]scanned
	names   map[string]*nameState
	walk    uint32 // counts the walks, for nameState.seen
	loaded  bool   // the ScanCache was read
	dirty   bool   // scanned or names differ from what the ScanCache holds
	// keptNames and the scanned entries marked unnamed are the name
	// verdicts under the globs of namesFrom, as the ScanCache kept them:
	// a new process asks the globs only about the paths an earlier one
	// did not see.
	keptNames map[string]bool
	namesFrom string
	matched   int // paths asked of the globs, for tests of what is kept
}

// stamp identifies one content of a file without reading it (entry.stat):
// the file (device and inode), its size and its modification and change
// times. A write moves both times, and the change time cannot be set back
// (touch -r restores only the modification time), so content given key
// material under its old modification time and size still gets a new
// stamp.
type stamp struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64 // nanoseconds
}

type scanned struct {
	stamp  stamp
	secret bool
	// unnamed: no glob of masker.namesFrom names the path (a name
	// verdict, kept beside the key verdict to store the path once).
	unnamed bool
}

// nameState is what a walk knows of an entry by its path: whether a
// secret glob names it, and which walk saw it last.
type nameState struct {
	named bool
	seen  uint32
}

// errNotRegular is entry.stat's answer for what is no regular file (any
// more).
var errNotRegular = errors.New("not a regular file")

// ScanCache keeps the key-material verdicts between processes: Load
// returns what Save last stored (nothing, or content that does not
// decode, leaves every file to be read again). Both report their own
// failures: a verdict not kept only costs a read in the next process.
// What it stores must be out of the sandbox's reach (mcpc's state folder,
// masked whole), or a command could mark a secret clean.
type ScanCache interface {
	Load() []byte
	Save(data []byte)
}

// KeyMatcher says whether a file's content holds key material. A
// sandbox's first command reads through it every small file of the
// worktree its ScanCache does not answer for, so it should be fast on
// content that holds none.
type KeyMatcher interface{ Match(content []byte) bool }

// newMasker keeps verdicts in cache only for a matcher that names itself
// (a fmt.Stringer, as *regexp.Regexp is): verdicts of another matcher, an
// older mcpc's pattern, are never trusted.
func newMasker(root string, key KeyMatcher, cache ScanCache) *masker {
	m := &masker{root: root, key: key, scanned: map[string]scanned{}, names: map[string]*nameState{}}
	if named, ok := key.(fmt.Stringer); ok && cache != nil {
		m.keyID, m.cache = named.String(), cache
	}
	return m
}

// secrets walks the worktree and returns the absolute paths of its secret
// files and folders, skipping the worktree paths in skip (masked whole).
func (m *masker) secrets(globs []string, skip []string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.compile(globs); err != nil {
		return nil, err
	}
	m.load()
	skipped := map[string]bool{}
	for _, s := range skip {
		skipped[filepath.ToSlash(filepath.Clean(s))] = true
	}
	m.walk++
	var found []string
	err := walkTree(m.root, func(e entry) bool {
		if skipped[e.rel] {
			return true
		}
		if e.typ&fs.ModeSymlink != 0 {
			return true
		}
		if m.named(e.rel) {
			found = append(found, filepath.Join(m.root, filepath.FromSlash(e.rel)))
			return true
		}
		if e.typ.IsRegular() && m.holdsKey(e) {
			found = append(found, filepath.Join(m.root, filepath.FromSlash(e.rel)))
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	m.forgetUnseen()
	m.save()
	slices.Sort(found)
	return found, nil
}

// forgetUnseen drops what the last walk did not see: deleted files, and
// those under a folder now masked whole.
func (m *masker) forgetUnseen() {
	for rel, n := range m.names {
		if n.seen != m.walk {
			delete(m.names, rel)
		}
	}
	for rel := range m.scanned {
		if n, ok := m.names[rel]; !ok || n.seen != m.walk {
			delete(m.scanned, rel)
			m.dirty = true
		}
	}
}

// compile compiles globs unless they are those compiled last.
func (m *masker) compile(globs []string) error {
	if strings.Join(globs, "\x00") == strings.Join(m.globs, "\x00") && m.matcher != nil {
		return nil
	}
	matcher := make([]*glob.Pattern, 0, len(globs))
	for _, g := range globs {
		c, err := glob.Compile(g, '/')
		if err != nil {
			return err
		}
		matcher = append(matcher, c)
	}
	m.globs, m.matcher, m.globsID = globs, matcher, globsIdentity(globs)
	clear(m.names)
	return nil
}

// namesVersion changes when named's matching does (its case folding, its
// separator): name verdicts kept under another version are not this one's.
const namesVersion = "lower-case, '/'-separated v1"

// globsIdentity names the name verdicts of globs: their matching (this
// version and the glob module's) and the globs, so a policy that adds a
// glob, or an mcpc that matches otherwise, asks the globs again.
func globsIdentity(globs []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n", namesVersion, globModule())
	for _, g := range globs {
		fmt.Fprintf(h, "%q\n", g)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// globModule is the glob module's version in this build.
var globModule = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range bi.Deps {
			if dep.Path == "github.com/gobwas/glob" {
				return dep.Path + "@" + dep.Version
			}
		}
	}
	return "github.com/gobwas/glob@unknown"
})

// named says whether rel matches a secret glob; globs are lower case and
// match any case, as in the pack policy. The answer is kept until the
// globs change: matching every path against every glob was a third of a
// warm Command at 47,870 files. An earlier process's answers under the
// same globs are kept too (the ScanCache), for that was as much of a new
// process's first Command (the answer depends on the path and the globs
// alone, so no stamp is needed: a new path is not among them).
func (m *masker) named(rel string) bool {
	if n, ok := m.names[rel]; ok {
		n.seen = m.walk
		return n.named
	}
	n := &nameState{seen: m.walk}
	m.names[rel] = n
	if named, ok := m.keptName(rel); ok {
		n.named = named
		return named
	}
	m.dirty = true // a path the ScanCache has no name verdict on
	m.matched++
	lower := strings.ToLower(rel)
	for _, g := range m.matcher {
		if g.Match(lower) {
			n.named = true
			break
		}
	}
	return n.named
}

// keptName is the ScanCache's name verdict on rel under the globs
// compiled now, if it holds one.
func (m *masker) keptName(rel string) (named, ok bool) {
	if m.namesFrom != m.globsID {
		return false, false
	}
	if s, ok := m.scanned[rel]; ok && s.unnamed {
		return false, true
	}
	named, ok = m.keptNames[rel]
	return named, ok
}

// holdsKey says whether the regular file holds key material.
func (m *masker) holdsKey(e entry) bool {
	if m.key == nil {
		return false
	}
	st, err := e.stat()
	if err != nil || st.size > keyScanBytes {
		return false
	}
	if s, ok := m.scanned[e.rel]; ok && s.stamp == st {
		return s.secret
	}
	secret, err := m.scanFile(e)
	if err != nil {
		// Unreadable here is unreadable in the sandbox too.
		return false
	}
	if time.Since(time.Unix(0, st.ctime)) < racyWindow {
		// Racily clean, as git says: a write in the same tick of the
		// file system's clock as the one stamped could keep the stamp,
		// so a verdict on content this fresh is not kept.
		if _, ok := m.scanned[e.rel]; ok {
			delete(m.scanned, e.rel)
			m.dirty = true
		}
		return secret
	}
	m.scanned[e.rel] = scanned{stamp: st, secret: secret}
	m.dirty = true
	return secret
}

func (m *masker) scanFile(e entry) (bool, error) {
	f, err := e.open()
	if err != nil {
		return false, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, keyScanBytes+1))
	if err != nil && !errors.Is(err, io.EOF) {
		return false, err
	}
	return m.key.Match(data), nil
}
