package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

// LoaderOptions configures Load.
type LoaderOptions struct {
	// Bundles are bundle paths (file or directory) or http(s) URLs serving
	// one, decided with together (Options.BundlePaths: each within its
	// manifest's roots, overlapping roots refused). Default: the embedded
	// policies.
	Bundles []string
	// PollInterval is how often a path or URL bundle is checked for a new
	// version. Default 30s; negative disables polling.
	PollInterval time.Duration
	// Log receives load and poll outcomes. Default: disabled.
	Log *zerolog.Logger
	// Verify is the key bundles must be signed with. A URL bundle is
	// refused without one; a path bundle is verified when it is set.
	Verify *Verification
	// LocalDir is repository-local Rego compiled with every bundle
	// (Options.LocalDir). Default: none.
	LocalDir string
	// AllowInsecureHTTP lets a bundle URL use plain http (development
	// only); otherwise an http:// URL is refused.
	AllowInsecureHTTP bool
	// OnUpdate is called, on the poller's goroutine, after a new version
	// of the bundle replaced the one in force (not for the first load).
	// Default: nothing.
	OnUpdate func(version, source string)
}

// Loader holds the engine in force and replaces it when the bundle changes,
// as OPA's bundle plugin does. A bundle that fails to load, or is rejected
// (a URL that is plain http or not signed with the configured key, a
// tampered file), never replaces the engine in force: the last good
// policy stays and the log says why. For a URL that is the embedded
// policy until a bundle verifies (what is served over a network is only
// trusted once signed); for a path, the operator's own file, there is no
// fallback: until it loads every evaluation fails with code
// bundle_missing, and callers deny (fail closed).
type Loader struct {
	opts    LoaderOptions
	log     zerolog.Logger
	current atomic.Pointer[Engine]
	lastErr atomic.Pointer[string]
	sources []*source
	// stop ends the poller, polled is closed when it has (at once without
	// one): Close removes the downloads only then.
	stop   context.CancelFunc
	polled chan struct{}
}

// source is one configured bundle and what was last seen of it.
type source struct {
	src     string
	etag    string
	modTime time.Time
	// path is the local copy last loaded: src itself, or a downloaded file
	// kept while it is in force (another bundle's update reloads it).
	path string
}

// Load builds a Loader and loads the bundle once. A bundle that cannot be
// loaded is not an error here (the Loader denies until it can); LoadErr says
// why. Polling runs until ctx ends.
func Load(ctx context.Context, opts LoaderOptions) *Loader {
	if opts.PollInterval == 0 {
		opts.PollInterval = 30 * time.Second
	}
	ctx, stop := context.WithCancel(ctx)
	l := &Loader{opts: opts, log: zerolog.Nop(), stop: stop, polled: make(chan struct{})}
	if opts.Log != nil {
		l.log = *opts.Log
	}
	for _, src := range opts.Bundles {
		l.sources = append(l.sources, &source{src: src})
	}
	if l.anyURL() {
		if e, err := New(ctx, Options{LocalDir: opts.LocalDir}); err == nil {
			l.current.Store(e)
		}
		if err := l.urlAllowed(); err != nil {
			// Nothing a poll can change: say so once and keep the embedded
			// policy.
			l.reject(err)
			close(l.polled)
			return l
		}
	}
	l.refresh(ctx)
	if len(opts.Bundles) == 0 || opts.PollInterval <= 0 {
		close(l.polled)
	} else {
		go func() {
			defer close(l.polled)
			t := time.NewTicker(opts.PollInterval)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					l.refresh(ctx)
				}
			}
		}()
	}
	return l
}

// refresh loads the bundle when it is new; on failure the previous engine
// stays only if one was loaded from this same source (a bad update does not
// take a good policy away), otherwise evaluations keep failing.
func (l *Loader) refresh(ctx context.Context) {
	paths, changed, err := l.fetchAll(ctx)
	if err == nil && !changed {
		return
	}
	var e *Engine
	if err == nil {
		e, err = New(ctx, Options{BundlePaths: paths, Verify: l.opts.Verify, LocalDir: l.opts.LocalDir})
	}
	if err != nil {
		l.reject(err)
		return
	}
	l.lastErr.Store(nil)
	if prev := l.current.Swap(e); prev != nil && prev.Version() != e.Version() {
		l.log.Info().Str("version", e.Version()).Msg("policy bundle updated")
		if l.opts.OnUpdate != nil {
			l.opts.OnUpdate(e.Version(), e.Source())
		}
	}
}

// reject records why the configured bundle is not in force and logs it
// with what decides instead.
func (l *Loader) reject(err error) {
	msg := err.Error()
	l.lastErr.Store(&msg)
	if cur := l.current.Load(); cur != nil {
		l.log.Error().Err(err).Str("bundle", l.bundleNames()).Str("keeping", cur.Source()).Str("version", cur.Version()).
			Msg("policy bundle rejected; the last good policy stays in force")
		return
	}
	l.log.Error().Err(err).Str("bundle", l.bundleNames()).Msg("policy bundle not loaded; turns are denied until it loads")
}

// urlAllowed refuses what no download can make trustworthy: plain http
// (anyone on the path can change it) unless allowed for development, and
// a URL without a key to verify its signature.
func (l *Loader) urlAllowed() error {
	for _, s := range l.sources {
		if strings.HasPrefix(s.src, "http://") && !l.opts.AllowInsecureHTTP {
			return fmt.Errorf("bundle %s: plain http is refused; serve it over https (or, for development only, pass --allow-insecure-bundle-http)", s.src)
		}
		if isURL(s.src) && l.opts.Verify == nil {
			return fmt.Errorf("bundle %s: a bundle URL is used only when its signature verifies; configure --bundle-key (or bundles.verification.keyFile)", s.src)
		}
	}
	return nil
}

func (l *Loader) anyURL() bool {
	for _, s := range l.sources {
		if isURL(s.src) {
			return true
		}
	}
	return false
}

// bundleNames is the configured bundles for logs and errors.
func (l *Loader) bundleNames() string { return strings.Join(l.opts.Bundles, ",") }

// fetchAll returns the local paths of every bundle and whether any changed
// since the last successful look: one changed bundle reloads them all
// together, since their roots are checked against each other.
func (l *Loader) fetchAll(ctx context.Context) ([]string, bool, error) {
	if len(l.sources) == 0 {
		return nil, l.current.Load() == nil, nil
	}
	paths := make([]string, 0, len(l.sources))
	changed := false
	for _, s := range l.sources {
		path, ch, err := l.fetch(ctx, s)
		if err != nil {
			return nil, false, err
		}
		changed = changed || ch
		paths = append(paths, path)
	}
	return paths, changed, nil
}

func isURL(src string) bool {
	return strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://")
}

// fetch returns a local path to load and whether it changed since the last
// successful look.
func (l *Loader) fetch(ctx context.Context, s *source) (string, bool, error) {
	if isURL(s.src) {
		return l.download(ctx, s)
	}
	fi, err := os.Stat(s.src)
	if err != nil {
		return "", false, fmt.Errorf("bundle %s: %w", s.src, err)
	}
	if l.current.Load() != nil && fi.ModTime().Equal(s.modTime) && !fi.IsDir() {
		return s.src, false, nil
	}
	s.modTime = fi.ModTime()
	return s.src, true, nil
}

func (l *Loader) download(ctx context.Context, s *source) (string, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.src, nil)
	if err != nil {
		return "", false, err
	}
	if s.etag != "" && s.path != "" {
		req.Header.Set("If-None-Match", s.etag)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", false, fmt.Errorf("bundle %s: %w", s.src, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotModified {
		return s.path, false, nil
	}
	if resp.StatusCode != http.StatusOK {
		return "", false, fmt.Errorf("bundle %s: HTTP %s", s.src, resp.Status)
	}
	f, err := os.CreateTemp("", "mcpc-bundle-*.tar.gz")
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	if _, err := io.Copy(f, io.LimitReader(resp.Body, 256<<20)); err != nil {
		os.Remove(f.Name())
		return "", false, err
	}
	if s.path != "" {
		os.Remove(s.path)
	}
	s.path = f.Name()
	s.etag = resp.Header.Get("ETag")
	return f.Name(), true, nil
}

// Close stops polling and removes the downloaded copies of URL bundles,
// which would otherwise stay in the temporary folder after the process:
// one per process that ever served a URL bundle. The engine in force
// stays usable.
func (l *Loader) Close() {
	l.stop()
	<-l.polled
	for _, s := range l.sources {
		if s.path != "" && s.path != s.src {
			if err := os.Remove(s.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				l.log.Warn().Err(err).Str("file", s.path).Msg("remove the downloaded bundle")
			}
			s.path = ""
		}
	}
}

// Current is the engine in force, or nil before a bundle has loaded.
func (l *Loader) Current() *Engine { return l.current.Load() }

// LoadErr is why the configured bundle is not (or no longer) loading.
func (l *Loader) LoadErr() error {
	if m := l.lastErr.Load(); m != nil {
		return errors.New(*m)
	}
	return nil
}

// Evaluate decides with the engine in force; without one it fails with
// bundle_missing.
func (l *Loader) Evaluate(ctx context.Context, doc any, out any) ([]byte, []byte, error) {
	e := l.current.Load()
	if e == nil {
		return l.missing(doc)
	}
	return e.Evaluate(ctx, doc, out)
}

// EvaluateStage1 is Evaluate for the first stage.
func (l *Loader) EvaluateStage1(ctx context.Context, doc any, out any) ([]byte, []byte, error) {
	e := l.current.Load()
	if e == nil {
		return l.missing(doc)
	}
	return e.EvaluateStage1(ctx, doc, out)
}

func (l *Loader) missing(doc any) ([]byte, []byte, error) {
	in, err := ParseInput(doc)
	var raw []byte
	if err == nil {
		raw = in.JSON
	}
	msg := "no policy bundle is loaded"
	if err := l.LoadErr(); err != nil {
		msg += ": " + err.Error()
	}
	return raw, nil, &Error{Code: "bundle_missing", Location: l.bundleNames(), Message: msg}
}

// EvaluateQuery evaluates another prepared query with the engine in force.
func (l *Loader) EvaluateQuery(ctx context.Context, query string, doc any, out any) error {
	e := l.current.Load()
	if e == nil {
		return &Error{Code: "bundle_missing", Location: l.bundleNames(), Message: "no policy bundle is loaded"}
	}
	return e.EvaluateQuery(ctx, query, doc, out)
}

// Version is the version of the engine in force ("" before one loaded).
func (l *Loader) Version() string {
	if e := l.current.Load(); e != nil {
		return e.Version()
	}
	return ""
}

// Data reads the bundle data of the engine in force.
func (l *Loader) Data(path ...string) any {
	if e := l.current.Load(); e != nil {
		return e.Data(path...)
	}
	return nil
}
