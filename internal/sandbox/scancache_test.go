package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// countingMatcher is testKeyMaterial counting the files it is asked about.
type countingMatcher struct {
	mu    sync.Mutex
	reads int
	id    string
}

func (c *countingMatcher) Match(content []byte) bool {
	c.mu.Lock()
	c.reads++
	c.mu.Unlock()
	return testKeyMaterial.Match(content)
}

func (c *countingMatcher) String() string { return c.id }

// unnamedMatcher is a KeyMatcher that does not say which pattern it is.
type unnamedMatcher struct{}

func (unnamedMatcher) Match(content []byte) bool { return testKeyMaterial.Match(content) }

func (c *countingMatcher) took() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.reads
	c.reads = 0
	return n
}

// memCache is a ScanCache in memory: what a store file would hold.
type memCache struct{ data []byte }

func (m *memCache) Load() []byte     { return m.data }
func (m *memCache) Save(data []byte) { m.data = data }

// keepFreshVerdicts lets a test keep the verdicts of files it just wrote
// (the cache never keeps content changed within racyWindow).
func keepFreshVerdicts(t *testing.T) {
	old := racyWindow
	racyWindow = 0
	t.Cleanup(func() { racyWindow = old })
}

const pemKey = "-----BEGIN RSA PRIVATE KEY-----\nKEY_SECRET\n"

// TestSelfTestWalksNothing: a new sandbox proves itself without reading
// the worktree; its first command does.
func TestSelfTestWalksNothing(t *testing.T) {
	root := worktree(t, map[string]string{"src/a.ts": "a\n", "src/b.ts": "b\n"})
	key := &countingMatcher{id: "test"}
	s := newSandbox(t, Options{Root: root, KeyMaterial: key})
	if n := key.took(); n != 0 {
		t.Errorf("the self-test read %d files", n)
	}
	if out, err := run(t, s, Run{}, "cat src/a.ts"); err != nil || out != "a\n" {
		t.Fatalf("%q %v", out, err)
	}
	if n := key.took(); n != 2 {
		t.Errorf("the first command read %d files, want 2", n)
	}
}

// TestScanCacheAcrossProcesses: a second sandbox of the same worktree (a
// new process) reads only the files whose stamp changed since the first
// ran a command, and still masks every secret: a file given key material
// under its old modification time and size, a new one, an ignored one
// and the target of a link.
func TestScanCacheAcrossProcesses(t *testing.T) {
	keepFreshVerdicts(t)
	files := map[string]string{".gitignore": "dist/\n", "src/c.ts": "c\n"}
	for i := range 20 {
		files["src/f"+strings.Repeat("x", i)+".ts"] = "export const f = 1\n"
	}
	files["src/a.ts"] = strings.Repeat("a", len(pemKey)-1) + "\n"
	root := worktree(t, files)
	cache := &memCache{}
	key := &countingMatcher{id: "test"}
	first := newSandbox(t, Options{Root: root, KeyMaterial: key, ScanCache: cache})
	if out, _ := run(t, first, Run{}, "cat src/a.ts"); !strings.HasPrefix(out, "aaa") {
		t.Fatalf("first run: %q", out)
	}
	if n := key.took(); n != len(files) || len(cache.data) == 0 {
		t.Fatalf("the first command read %d files and kept %d bytes", n, len(cache.data))
	}

	// Between the processes: src/a.ts gets key material of its size, its
	// modification time set back; new, ignored and linked secrets.
	a := filepath.Join(root, "src", "a.ts")
	info, err := os.Stat(a)
	must(t, err)
	must(t, os.WriteFile(a, []byte(pemKey), 0o644))
	must(t, os.Chtimes(a, info.ModTime(), info.ModTime()))
	must(t, os.WriteFile(filepath.Join(root, "src", "new.txt"), []byte(pemKey), 0o644))
	must(t, os.MkdirAll(filepath.Join(root, "dist"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "dist", "server.key"), []byte(pemKey), 0o644))
	must(t, os.Symlink("../dist/server.key", filepath.Join(root, "src", "link.txt")))
	must(t, os.Remove(filepath.Join(root, "src", "c.ts")))

	second := newSandbox(t, Options{Root: root, KeyMaterial: key, ScanCache: cache})
	out, _ := run(t, second, Run{}, "cat src/a.ts src/new.txt dist/server.key src/link.txt src/f.ts 2>&1")
	if strings.Contains(out, "KEY_SECRET") || !strings.Contains(out, "export const f") {
		t.Errorf("the second process's command read:\n%s", out)
	}
	if n := key.took(); n != 3 {
		t.Errorf("the second process read %d files, want the 3 changed or new", n)
	}
	// The cache now holds the second process's verdicts: two files more
	// (the link is no file of its own), src/c.ts gone.
	kept, ok := decodeScans(cache.data, second.masks.header())
	got := kept.scans
	if !ok || len(got) != len(files)+1 {
		t.Errorf("the cache holds %d verdicts (%v), want %d", len(got), ok, len(files)+1)
	}
	if !got["src/a.ts"].secret || !got["dist/server.key"].secret || got["src/f.ts"].secret {
		t.Errorf("the cache's verdicts: %+v", got)
	}
	if _, ok := got["src/c.ts"]; ok {
		t.Error("the cache keeps a deleted file")
	}
}

// TestScanCacheIsDroppedWhenItCannotBeTrusted: verdicts of another matcher
// (another mcpc's pattern) or content that does not decode are dropped
// whole, and every file is read again.
func TestScanCacheIsDroppedWhenItCannotBeTrusted(t *testing.T) {
	keepFreshVerdicts(t)
	root := worktree(t, map[string]string{"src/a.ts": "a\n", "src/b.ts": "b\n", "src/c.ts": "c\n"})
	cache := &memCache{}
	key := &countingMatcher{id: "pattern v1"}
	s := newSandbox(t, Options{Root: root, KeyMaterial: key, ScanCache: cache})
	run(t, s, Run{}, "true")
	key.took()
	kept := cache.data
	for _, tc := range []struct {
		note string
		id   string
		data []byte
	}{
		{note: "the same matcher", id: "pattern v1", data: kept},
		{note: "another matcher", id: "pattern v2", data: kept},
		{note: "cut short", id: "pattern v1", data: kept[:len(kept)-3]},
		{note: "not a cache", id: "pattern v1", data: []byte("garbage")},
	} {
		t.Run(tc.note, func(t *testing.T) {
			key := &countingMatcher{id: tc.id}
			s := newSandbox(t, Options{Root: root, KeyMaterial: key, ScanCache: &memCache{data: tc.data}})
			run(t, s, Run{}, "true")
			want := 3
			if tc.note == "the same matcher" {
				want = 0
			}
			if n := key.took(); n != want {
				t.Errorf("read %d files, want %d", n, want)
			}
		})
	}
	// A matcher that does not name itself keeps no cache.
	s = newSandbox(t, Options{Root: root, KeyMaterial: unnamedMatcher{}, ScanCache: &memCache{}})
	run(t, s, Run{}, "true")
	if s.masks.cache != nil {
		t.Error("a cache was kept for an unnamed matcher")
	}
}

// TestFreshContentIsReadAgain: a verdict on content changed within
// racyWindow is not kept, since a write in the same clock tick could leave
// its stamp unchanged.
func TestFreshContentIsReadAgain(t *testing.T) {
	old := racyWindow
	defer func() { racyWindow = old }()
	racyWindow = time.Hour // fresh however slow the machine
	root := worktree(t, map[string]string{"src/a.ts": "a\n"})
	key := &countingMatcher{id: "test"}
	s := newSandbox(t, Options{Root: root, KeyMaterial: key, ScanCache: &memCache{}})
	run(t, s, Run{}, "true")
	run(t, s, Run{}, "true")
	if n := key.took(); n != 2 {
		t.Errorf("fresh content read %d times in two commands, want 2", n)
	}
	racyWindow = time.Nanosecond // the change time has passed; any age passes
	time.Sleep(time.Millisecond)
	run(t, s, Run{}, "true")
	run(t, s, Run{}, "true")
	if n := key.took(); n != 1 {
		t.Errorf("settled content read %d times in two commands, want 1", n)
	}
}

// matched is how many paths the sandbox's masks asked the globs about
// since the last call.
func matched(s *Sandbox) int {
	s.masks.mu.Lock()
	defer s.masks.mu.Unlock()
	n := s.masks.matched
	s.masks.matched = 0
	return n
}

// TestNameVerdictsAcrossProcesses: a new process asks the secret globs
// only about paths no earlier process saw under the same globs, and masks
// every named file all the same: the one an earlier process named, a new
// one, and one that only a changed glob set names.
func TestNameVerdictsAcrossProcesses(t *testing.T) {
	keepFreshVerdicts(t)
	root := worktree(t, map[string]string{
		"src/a.ts": "a\n", "src/deep/b.ts": "b\n", ".env": "TOKEN=ENV_SECRET\n", "big.bin": strings.Repeat("x", keyScanBytes+1),
		"config.toml": "CONF_SECRET\n",
	})
	entries := 7 // src, src/a.ts, src/deep, src/deep/b.ts, .env, big.bin, config.toml
	cache := &memCache{}
	globs := testGlobs
	process := func() *Sandbox {
		return newSandbox(t, Options{Root: root, ScanCache: cache, KeyMaterial: &countingMatcher{id: "test"},
			SecretGlobs: func() []string { return globs }})
	}
	reads := func(s *Sandbox, note string, secrets ...string) {
		t.Helper()
		out, _ := run(t, s, Run{}, "cat .env src/a.ts src/new.pem config.toml 2>&1")
		for _, secret := range append(secrets, "ENV_SECRET", "PEM_SECRET") {
			if strings.Contains(out, secret) || !strings.Contains(out, "a\n") {
				t.Errorf("%s: the command read\n%s", note, out)
			}
		}
	}

	first := process()
	reads(first, "first process")
	if n := matched(first); n != entries {
		t.Fatalf("the first process matched %d paths, want %d", n, entries)
	}
	kept := slices.Clone(cache.data)
	second := process()
	reads(second, "second process")
	if n := matched(second); n != 0 {
		t.Errorf("the second process matched %d paths, want none", n)
	}
	if !slices.Equal(cache.data, kept) {
		t.Error("a process that matched nothing rewrote the cache")
	}

	// A new path is matched, and masked.
	must(t, os.WriteFile(filepath.Join(root, "src", "new.pem"), []byte("PEM_SECRET\n"), 0o644))
	third := process()
	reads(third, "a new named file")
	if n := matched(third); n != 1 {
		t.Errorf("the third process matched %d paths, want the new one", n)
	}

	// A glob added by policy names a path every earlier process found
	// unnamed: all are matched again, and it is masked.
	globs = append(slices.Clone(testGlobs), "config.toml")
	fourth := process()
	reads(fourth, "a glob added", "CONF_SECRET")
	if n := matched(fourth); n != entries+1 {
		t.Errorf("after the globs changed the process matched %d paths, want %d", n, entries+1)
	}

	// A damaged cache is dropped: every path matched again.
	cache.data[len(cache.data)/2] ^= 1
	fifth := process()
	reads(fifth, "a damaged cache", "CONF_SECRET")
	if n := matched(fifth); n != entries+1 {
		t.Errorf("with a damaged cache the process matched %d paths, want %d", n, entries+1)
	}
}
