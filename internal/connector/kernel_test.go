package connector

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/pathscope"
)

const secret = "tok-SECRET-0123456789"

func newCache(t *testing.T, ttl time.Duration, now func() time.Time) *Cache {
	t.Helper()
	res, err := pathscope.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &Cache{Files: res, Dir: ".ai/tmp/connectors", TTL: ttl, Now: now}
}

func fast(o Options) *Kernel {
	o.BaseBackoff, o.MaxBackoff = time.Millisecond, 5*time.Millisecond
	o.RatePerSec, o.Burst = 1000, 100
	return New(o)
}

func TestErrorsAreNormalized(t *testing.T) {
	for _, tc := range []struct {
		note   string
		status int
		code   string
		calls  int32
	}{
		{"401 is unauthorized, not retried", 401, CodeUnauthorized, 1},
		{"403 is forbidden", 403, CodeForbidden, 1},
		{"404 is not_found", 404, CodeNotFound, 1},
		{"429 past the retries is rate_limited", 429, CodeRateLimited, 3},
		{"503 past the retries is unavailable", 503, CodeUnavailable, 3},
		{"400 is malformed", 400, CodeMalformed, 1},
	} {
		t.Run(tc.note, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				w.WriteHeader(tc.status)
				w.Write([]byte("echo " + r.Header.Get("Authorization"))) // a hostile server echoing the token
			}))
			defer srv.Close()
			_, err := fast(Options{}).Get(context.Background(), Request{Source: "jira", URL: srv.URL + "/x?secret=q", Token: secret})
			e := AsError(err)
			if e == nil || e.Code != tc.code || e.Status != tc.status {
				t.Fatalf("got %+v, want %s", e, tc.code)
			}
			if calls.Load() != tc.calls {
				t.Errorf("%d calls, want %d", calls.Load(), tc.calls)
			}
			if strings.Contains(e.Error(), secret) || strings.Contains(e.Error(), "secret=q") {
				t.Errorf("the error leaks: %v", e)
			}
		})
	}
}

func TestRetryThenSuccess(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) < 3 {
			w.WriteHeader(503)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+secret {
			w.WriteHeader(401)
			return
		}
		w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	res, err := fast(Options{}).Get(context.Background(), Request{Source: "jira", URL: srv.URL, Token: secret})
	if err != nil || string(res.Body) != `{"ok":true}` || len(res.Trace) != 3 {
		t.Fatalf("err %v body %q trace %+v", err, res.Body, res.Trace)
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	var mu sync.Mutex
	var at []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		at = append(at, time.Now())
		n := len(at)
		mu.Unlock()
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			return
		}
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	if _, err := fast(Options{}).Get(context.Background(), Request{Source: "jira", URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	if len(at) != 2 || at[1].Sub(at[0]) < time.Second {
		t.Fatalf("the retry came %v after a Retry-After of 1 s", at[1].Sub(at[0]))
	}
}

func TestRetryAfterBeyondTheBudgetGivesUp(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(429)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := fast(Options{}).Get(ctx, Request{Source: "jira", URL: srv.URL})
	e := AsError(err)
	if e.Code != CodeRateLimited || e.RetryAfterSec != 120 || calls.Load() != 1 || ctx.Err() != nil {
		t.Fatalf("got %+v after %d calls (ctx %v)", e, calls.Load(), ctx.Err())
	}
	if !strings.Contains(e.Message, "asked to wait") {
		t.Errorf("message %q does not say why it gave up", e.Message)
	}
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	_, err := fast(Options{RequestTimeout: 50 * time.Millisecond, MaxRetries: 1}).Get(context.Background(), Request{Source: "openapi", URL: srv.URL})
	if e := AsError(err); e.Code != CodeTimeout {
		t.Fatalf("got %+v", e)
	}
}

func TestTooLarge(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat("x", 2048)))
	}))
	defer srv.Close()
	_, err := fast(Options{MaxBodyBytes: 1024}).Get(context.Background(), Request{Source: "openapi", URL: srv.URL})
	if e := AsError(err); e.Code != CodeTooLarge {
		t.Fatalf("got %+v", e)
	}
}

func TestRateLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{}`)) }))
	defer srv.Close()
	k := New(Options{RatePerSec: 0.01, Burst: 1, MaxRetries: -1})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := k.Get(ctx, Request{Source: "jira", URL: srv.URL + "/1"}); err != nil {
		t.Fatal(err)
	}
	// The bucket is empty and refills in 100 s: the second request cannot
	// be sent within the second left, and says so at once.
	_, err := k.Get(ctx, Request{Source: "jira", URL: srv.URL + "/2"})
	if e := AsError(err); e == nil || e.Code != CodeTimeout || !strings.Contains(e.Message, "rate limit") {
		t.Fatalf("got %+v", e)
	}
	if ctx.Err() != nil {
		t.Errorf("the limiter waited out the deadline instead of refusing at once")
	}
}

func TestCacheValidity(t *testing.T) {
	var calls, conditional atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.Header.Get("If-None-Match") == `"v1"` {
			conditional.Add(1)
			w.WriteHeader(304)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Write([]byte(`{"v":1}`))
	}))
	defer srv.Close()
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	cache := newCache(t, time.Minute, func() time.Time { return now })
	k := fast(Options{Cache: cache})
	get := func(token string) *Response {
		t.Helper()
		res, err := k.Get(context.Background(), Request{Source: "jira", URL: srv.URL + "/issue/A-1", Token: token})
		if err != nil || string(res.Body) != `{"v":1}` {
			t.Fatalf("err %v body %q", err, res.Body)
		}
		return res
	}
	if r := get(secret); r.Cache != "" || calls.Load() != 1 {
		t.Fatalf("cold: cache %q calls %d", r.Cache, calls.Load())
	}
	if r := get(secret); r.Cache != "fresh" || calls.Load() != 1 {
		t.Fatalf("within the TTL: cache %q calls %d", r.Cache, calls.Load())
	}
	now = now.Add(2 * time.Minute)
	if r := get(secret); r.Cache != "revalidated" || conditional.Load() != 1 {
		t.Fatalf("past the TTL: cache %q conditional %d", r.Cache, conditional.Load())
	}
	if r := get(secret); r.Cache != "fresh" {
		t.Fatalf("a revalidation renews the TTL: cache %q", r.Cache)
	}
	if r := get("another-token"); r.Cache != "" {
		t.Fatalf("another token read this token's entry: %q", r.Cache)
	}
	raw, err := cache.Files.ReadFile(cache.name(Request{Source: "jira", URL: srv.URL + "/issue/A-1", Token: secret}), 1<<20)
	if err != nil || strings.Contains(string(raw), secret) {
		t.Fatalf("entry %q err %v", raw, err)
	}
}
