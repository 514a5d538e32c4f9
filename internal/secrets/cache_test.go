package secrets

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fileStore is a Store in one file, replaced whole by a temporary file
// renamed over it, as the controller's is.
type fileStore struct {
	t    testing.TB
	path string
}

func (s fileStore) Load() []byte {
	data, err := os.ReadFile(s.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.t.Error(err)
	}
	return data
}

func (s fileStore) Save(data []byte) {
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".scan-*")
	if err != nil {
		s.t.Error(err)
		return
	}
	if _, err := tmp.Write(data); err != nil {
		s.t.Error(err)
	}
	if err := tmp.Close(); err != nil {
		s.t.Error(err)
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		s.t.Error(err)
	}
}

// process is what a new mcpc process has: a Cache over the store file and
// a detector built only when the Cache asks for it (built counts that).
type process struct {
	cache *Cache
	built *atomic.Int64
}

func newProcess(t testing.TB, store Store, rs ruleSet) process {
	t.Helper()
	built := &atomic.Int64{}
	build := sync.OnceValues(func() (*Detector, error) {
		built.Add(1)
		if rs.own == rulesTOML && rs.defaults == defaultRules.defaults {
			return detector(t), nil // the shared one: compiling takes a while
		}
		return rs.build()
	})
	return process{cache: newCache(store, rs, build), built: built}
}

func (p process) scan(t testing.TB, content []byte) []Finding {
	t.Helper()
	got, err := p.cache.ScanContext(context.Background(), content)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestCacheKeepsVerdictsBetweenProcesses(t *testing.T) {
	store := fileStore{t, filepath.Join(t.TempDir(), "scan")}
	secret, clean := loadForm(t, "aws-credentials.ini"), loadForm(t, "clean.go")

	first := newProcess(t, store, defaultRules)
	wantSecret, wantClean := first.scan(t, secret), first.scan(t, clean)
	if len(wantSecret) == 0 || len(wantClean) != 0 {
		t.Fatalf("findings %+v and %+v, want some in the credentials and none in clean.go", wantSecret, wantClean)
	}
	if s := first.cache.Stats(); s.Scans != 2 || s.Hits != 0 {
		t.Fatalf("first process %+v, want 2 scans", s)
	}
	first.cache.Save()

	second := newProcess(t, store, defaultRules)
	if got := second.scan(t, secret); !slices.Equal(got, wantSecret) {
		t.Errorf("kept findings %+v, want %+v", got, wantSecret)
	}
	if got := second.scan(t, clean); len(got) != 0 {
		t.Errorf("kept findings %+v for clean content", got)
	}
	if s := second.cache.Stats(); s.Scans != 0 || s.Hits != 2 {
		t.Errorf("second process %+v, want 2 hits and no scan", s)
	}
	if n := second.built.Load(); n != 0 {
		t.Errorf("the second process built its detector (%d): the rules ran", n)
	}
	before, err := os.ReadFile(store.path)
	if err != nil {
		t.Fatal(err)
	}
	second.cache.Save()
	if after, _ := os.ReadFile(store.path); string(after) != string(before) {
		t.Error("a process that only hit rewrote the cache")
	}

	// A process scanning other content keeps what the first kept.
	third := newProcess(t, store, defaultRules)
	third.scan(t, loadForm(t, "deploy.sh"))
	third.cache.Save()
	fourth := newProcess(t, store, defaultRules)
	fourth.scan(t, secret)
	fourth.scan(t, loadForm(t, "deploy.sh"))
	if s := fourth.cache.Stats(); s.Scans != 0 {
		t.Errorf("after a third process saved, %+v, want every verdict kept", s)
	}
}

func TestCacheScansAgain(t *testing.T) {
	secret := loadForm(t, "aws-credentials.ini")
	tests := []struct {
		note    string
		content []byte                          // scanned by the second process
		damage  func(t *testing.T, path string) // what happens to the store between
		rules   ruleSet                         // the second process's
		scans   int64                           // its scans of content
	}{
		{note: "unchanged", content: secret, rules: defaultRules, scans: 0},
		{note: "content changed by one byte", content: append(slices.Clone(secret[:len(secret)-1]), secret[len(secret)-1]^1), rules: defaultRules, scans: 1},
		{note: "content grown", content: append(slices.Clone(secret), '\n'), rules: defaultRules, scans: 1},
		{note: "truncated store", content: secret, rules: defaultRules, scans: 1, damage: func(t *testing.T, path string) {
			rewrite(t, path, func(b []byte) []byte { return b[:len(b)-10] })
		}},
		{note: "store cut to its header", content: secret, rules: defaultRules, scans: 1, damage: func(t *testing.T, path string) {
			rewrite(t, path, func(b []byte) []byte { return b[:len(cacheHeader(defaultRules.identity()))+3] })
		}},
		{note: "flipped bit in a verdict", content: secret, rules: defaultRules, scans: 1, damage: func(t *testing.T, path string) {
			rewrite(t, path, func(b []byte) []byte {
				b[len(cacheHeader(defaultRules.identity()))+40] ^= 1
				return b
			})
		}},
		{note: "garbage", content: secret, rules: defaultRules, scans: 1, damage: func(t *testing.T, path string) {
			rewrite(t, path, func([]byte) []byte { return []byte("not a cache\x00\xff") })
		}},
		{note: "a rule added", content: secret, scans: 1, rules: ruleSet{defaults: defaultRules.defaults, overrides: defaultRules.overrides,
			own: rulesTOML + "\n[[rules]]\nid = \"mcpc-test-extra\"\nregex = '''aws_access_key_id'''\nkeywords = [\"aws_access_key_id\"]\n"}},
		{note: "a keyword override changed", content: secret, scans: 1, rules: ruleSet{defaults: defaultRules.defaults, own: rulesTOML,
			overrides: map[string][]string{"vault-service-token": {"hvs."}}}},
	}
	for _, tc := range tests {
		t.Run(tc.note, func(t *testing.T) {
			store := fileStore{t, filepath.Join(t.TempDir(), "scan")}
			first := newProcess(t, store, defaultRules)
			first.scan(t, secret)
			first.cache.Save()
			if tc.damage != nil {
				tc.damage(t, store.path)
			}
			second := newProcess(t, store, tc.rules)
			got := second.scan(t, tc.content)
			if s := second.cache.Stats(); s.Scans != tc.scans {
				t.Fatalf("%+v, want %d scans", s, tc.scans)
			}
			want, err := tc.rules.build()
			if err != nil {
				t.Fatal(err)
			}
			if w := want.Scan(tc.content); !slices.Equal(byLineAndRule(got), byLineAndRule(w)) {
				t.Errorf("findings %+v, want the detector's %+v", got, w)
			}
			// What was ignored is replaced by a store that decodes.
			second.cache.Save()
			if _, ok := decodeVerdicts(store.Load(), cacheHeader(tc.rules.identity())); !ok {
				t.Error("the store does not decode after the second process saved")
			}
		})
	}
}

// byLineAndRule orders findings by line, then rule: the detector's order
// among findings on one line varies from scan to scan.
func byLineAndRule(fs []Finding) []Finding {
	fs = slices.Clone(fs)
	slices.SortFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.StartLine, b.StartLine), strings.Compare(a.RuleID, b.RuleID))
	})
	return fs
}

func rewrite(t *testing.T, path string, change func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, change(b), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCacheKeepsNoIncompleteScan(t *testing.T) {
	store := fileStore{t, filepath.Join(t.TempDir(), "scan")}
	first := newProcess(t, store, defaultRules)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := first.cache.ScanContext(ctx, loadForm(t, "clean.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].RuleID != IncompleteRule {
		t.Fatalf("findings %+v of a cancelled scan, want %s", got, IncompleteRule)
	}
	first.cache.Save()
	second := newProcess(t, store, defaultRules)
	if got := second.scan(t, loadForm(t, "clean.go")); len(got) != 0 {
		t.Errorf("findings %+v: the cut scan was kept", got)
	}
	if s := second.cache.Stats(); s.Scans != 1 {
		t.Errorf("%+v, want the content scanned again", s)
	}
}

func TestCacheBounded(t *testing.T) {
	store := fileStore{t, filepath.Join(t.TempDir(), "scan")}
	p := newProcess(t, store, defaultRules)
	clock := time.Unix(1e9, 0)
	p.cache.now = func() time.Time { return clock }
	for i := range maxCacheEntries + 10 {
		clock = clock.Add(time.Second)
		p.scan(t, []byte{byte(i), byte(i >> 8), byte(i >> 16)})
	}
	p.cache.Save()
	kept, ok := decodeVerdicts(store.Load(), p.cache.header)
	if !ok {
		t.Fatal("the store does not decode")
	}
	if len(kept) != maxCacheEntries {
		t.Fatalf("%d verdicts kept, want %d", len(kept), maxCacheEntries)
	}
	for i := range 10 {
		if _, ok := kept[contentDigest([]byte{byte(i), byte(i >> 8), byte(i >> 16)})]; ok {
			t.Errorf("content %d, among the least recently used, was kept", i)
		}
	}
}

func TestCacheConcurrentSaves(t *testing.T) {
	store := fileStore{t, filepath.Join(t.TempDir(), "scan")}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			p := newProcess(t, store, defaultRules)
			for j := range 50 {
				p.scan(t, []byte{byte(i), byte(j)})
				p.cache.Save()
			}
		})
	}
	wg.Wait()
	if _, ok := decodeVerdicts(store.Load(), cacheHeader(defaultRules.identity())); !ok {
		t.Fatal("concurrent saves left a store that does not decode")
	}
}

func TestContentDigestPastCap(t *testing.T) {
	big := make([]byte, MaxScanBytes+1)
	exact := append(slices.Clone(big[:MaxScanBytes]), 1)
	if contentDigest(big) != contentDigest(exact) {
		t.Error("contents equal to the cap, both over it, hash apart")
	}
	if contentDigest(big[:MaxScanBytes]) == contentDigest(big) {
		t.Error("content at the cap and content past it hash alike")
	}
}
