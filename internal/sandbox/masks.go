package sandbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
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
	matcher []*glob.Pattern
	scanned map[string]scanned
	loaded  bool // the ScanCache was read
	dirty   bool // scanned differs from what the ScanCache holds
}

// stamp identifies one content of a file (stampOf).
type stamp struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64 // nanoseconds
}

type scanned struct {
	stamp  stamp
	secret bool
}

// ScanCache keeps the key-material verdicts between processes: Load
// returns what Save last stored (an error, or content that does not
// decode, leaves every file to be read again). Save reports its own
// failures: a verdict not kept only costs a read in the next process.
// What it stores must be out of the sandbox's reach (mcpc's state folder,
// masked whole), or a command could mark a secret clean.
type ScanCache interface {
	Load() ([]byte, error)
	Save(data []byte)
}

// KeyMatcher says whether a file's content holds key material. The first
// run of a sandbox reads every small file of the worktree through it, so
// it should be fast on content that holds none.
type KeyMatcher interface{ Match(content []byte) bool }

// newMasker keeps verdicts in cache only for a matcher that names itself
// (a fmt.Stringer, as *regexp.Regexp is): verdicts of another matcher, an
// older mcpc's pattern, are never trusted.
func newMasker(root string, key KeyMatcher, cache ScanCache) *masker {
	m := &masker{root: root, key: key, scanned: map[string]scanned{}}
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
	seen := map[string]bool{}
	var found []string
	err := filepath.WalkDir(m.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == m.root {
				return err
			}
			// A folder the walk cannot read cannot be read in the
			// sandbox either (same user, fewer capabilities).
			return nil
		}
		if p == m.root {
			return nil
		}
		rel, err := filepath.Rel(m.root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if skipped[rel] {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		if m.named(rel) {
			found = append(found, p)
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && m.holdsKey(p, rel, d) {
			found = append(found, p)
		}
		if !d.IsDir() {
			seen[rel] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for rel := range m.scanned {
		if !seen[rel] {
			delete(m.scanned, rel)
			m.dirty = true
		}
	}
	m.save()
	return found, nil
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
	m.globs, m.matcher = globs, matcher
	return nil
}

// named says whether rel matches a secret glob; globs are lower case and
// match any case, as in the pack policy.
func (m *masker) named(rel string) bool {
	lower := strings.ToLower(rel)
	for _, g := range m.matcher {
		if g.Match(lower) {
			return true
		}
	}
	return false
}

// holdsKey says whether the regular file p holds key material.
func (m *masker) holdsKey(p, rel string, d fs.DirEntry) bool {
	if m.key == nil {
		return false
	}
	info, err := d.Info()
	if err != nil || info.Size() > keyScanBytes {
		return false
	}
	st := stampOf(info)
	if s, ok := m.scanned[rel]; ok && s.stamp == st {
		return s.secret
	}
	secret, err := m.scanFile(p)
	if err != nil {
		// Unreadable here is unreadable in the sandbox too.
		return false
	}
	if time.Since(time.Unix(0, st.ctime)) < racyWindow {
		// Racily clean, as git says: a write in the same tick of the
		// file system's clock as the one stamped could keep the stamp,
		// so a verdict on content this fresh is not kept.
		if _, ok := m.scanned[rel]; ok {
			delete(m.scanned, rel)
			m.dirty = true
		}
		return secret
	}
	m.scanned[rel] = scanned{stamp: st, secret: secret}
	m.dirty = true
	return secret
}

func (m *masker) scanFile(p string) (bool, error) {
	// O_NONBLOCK: the entry was a regular file when listed, but a FIFO
	// put in its place must not hang the walk.
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
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
