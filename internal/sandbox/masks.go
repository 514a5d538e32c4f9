package sandbox

import (
	"errors"
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

// masker finds the worktree's secret files before each run: by name (the
// pack policy's secret globs) and by content (key material). A file is
// read again only when its size or modification time changed.
type masker struct {
	root string
	key  KeyMatcher

	mu      sync.Mutex
	globs   []string
	matcher []*glob.Pattern
	scanned map[string]scanned
}

type scanned struct {
	size   int64
	mtime  time.Time
	secret bool
}

// KeyMatcher says whether a file's content holds key material. The first
// run of a sandbox reads every small file of the worktree through it, so
// it should be fast on content that holds none.
type KeyMatcher interface{ Match(content []byte) bool }

func newMasker(root string, key KeyMatcher) *masker {
	return &masker{root: root, key: key, scanned: map[string]scanned{}}
}

// secrets walks the worktree and returns the absolute paths of its secret
// files and folders, skipping the worktree paths in skip (masked whole).
func (m *masker) secrets(globs []string, skip []string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.compile(globs); err != nil {
		return nil, err
	}
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
	for rel := range m.scanned {
		if !seen[rel] {
			delete(m.scanned, rel)
		}
	}
	return found, err
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
	if s, ok := m.scanned[rel]; ok && s.size == info.Size() && s.mtime.Equal(info.ModTime()) {
		return s.secret
	}
	secret, err := m.scanFile(p)
	if err != nil {
		// Unreadable here is unreadable in the sandbox too.
		return false
	}
	m.scanned[rel] = scanned{size: info.Size(), mtime: info.ModTime(), secret: secret}
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
