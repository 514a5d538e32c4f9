package connector

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/time/rate"
)

// Options configure a Kernel. Zero fields take the defaults noted.
type Options struct {
	RequestTimeout time.Duration // one attempt; default 2 s
	MaxRetries     int           // attempts after the first on 429, 5xx, timeouts; default 2 (-1: none)
	BaseBackoff    time.Duration // first backoff, doubled per retry; default 100 ms
	MaxBackoff     time.Duration // default 2 s
	RatePerSec     float64       // sustained requests per second; default 10
	Burst          int           // default 5
	MaxBodyBytes   int64         // default 16 MiB
	Cache          *Cache        // nil: no cache
	HTTP           *http.Client  // default: a client without redirects to other hosts' credentials
	Log            zerolog.Logger
}

// Kernel fetches for every connector of a process. Safe for concurrent use.
type Kernel struct {
	opts    Options
	limiter *rate.Limiter
}

// New builds a Kernel.
func New(opts Options) *Kernel {
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = 2 * time.Second
	}
	if opts.MaxRetries == 0 {
		opts.MaxRetries = 2
	} else if opts.MaxRetries < 0 {
		opts.MaxRetries = 0
	}
	if opts.BaseBackoff <= 0 {
		opts.BaseBackoff = 100 * time.Millisecond
	}
	if opts.MaxBackoff <= 0 {
		opts.MaxBackoff = 2 * time.Second
	}
	if opts.RatePerSec <= 0 {
		opts.RatePerSec = 10
	}
	if opts.Burst <= 0 {
		opts.Burst = 5
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 16 << 20
	}
	if opts.HTTP == nil {
		opts.HTTP = &http.Client{CheckRedirect: sameHostRedirects}
	}
	return &Kernel{opts: opts, limiter: rate.NewLimiter(rate.Limit(opts.RatePerSec), opts.Burst)}
}

// sameHostRedirects follows at most 5 redirects and none to another host:
// Go drops the Authorization header on a cross-host redirect, but a
// connector that silently fetched another host's page would report it as
// the ticket.
func sameHostRedirects(req *http.Request, via []*http.Request) error {
	if len(via) >= 5 {
		return errors.New("too many redirects")
	}
	if req.URL.Host != via[0].URL.Host {
		return fmt.Errorf("redirect to another host refused")
	}
	return nil
}

// Request is one GET.
type Request struct {
	Source string // "jira", "openapi": the trace's and the cache's namespace
	URL    string
	// Token is sent as "Authorization: Bearer"; never logged or cached.
	Token  string
	Accept string // default application/json
}

// Trace is one attempt or cache answer, as the trace reports it: no
// query, no credentials.
type Trace struct {
	Source     string `json:"source"`
	Target     string `json:"target"` // host and path
	Attempt    int    `json:"attempt"`
	Status     int    `json:"status,omitempty"`
	Cache      string `json:"cache,omitempty"` // fresh, revalidated, miss
	DurationMs int64  `json:"durationMs"`
	Error      string `json:"error,omitempty"` // the normalized code
}

// Response is what Get returns; Trace is set even when Get fails.
type Response struct {
	Body  []byte
	Cache string // "fresh", "revalidated" or "" (fetched)
	Trace []Trace
}

// Get fetches req.URL through the cache, the rate limit and the retries.
// ctx bounds everything, backoffs included.
func (k *Kernel) Get(ctx context.Context, req Request) (*Response, error) {
	resp := &Response{}
	target := traceTarget(req.URL)
	start := time.Now()
	var cached *entry
	if k.opts.Cache != nil {
		cached = k.opts.Cache.lookup(req)
		if cached != nil && cached.fresh(k.opts.Cache.now()) {
			resp.Body, resp.Cache = cached.body, "fresh"
			resp.Trace = append(resp.Trace, Trace{Source: req.Source, Target: target, Cache: "fresh", DurationMs: ms(time.Since(start))})
			k.trace(resp.Trace[len(resp.Trace)-1])
			return resp, nil
		}
	}
	var last *Error
	for attempt := 0; attempt <= k.opts.MaxRetries; attempt++ {
		if attempt > 0 {
			wait := k.backoff(attempt, last)
			if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
				if last.Code == CodeRateLimited {
					last.Message = fmt.Sprintf("the server asked to wait %s, more than the %s left", wait.Round(time.Millisecond), time.Until(dl).Round(time.Millisecond))
				}
				break
			}
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return resp, Errorf(CodeTimeout, "the connectors' time budget ran out while waiting to retry")
			}
		}
		t := Trace{Source: req.Source, Target: target, Attempt: attempt + 1, Cache: "miss"}
		began := time.Now()
		body, status, etag, err := k.once(ctx, req, cached)
		t.Status, t.DurationMs = status, ms(time.Since(began))
		if err == nil {
			if status == http.StatusNotModified && cached != nil {
				t.Cache = "revalidated"
				k.opts.Cache.store(req, cached.body, cached.ETag)
				resp.Body, resp.Cache = cached.body, "revalidated"
			} else {
				resp.Body = body
				if k.opts.Cache != nil {
					k.opts.Cache.store(req, body, etag)
				}
			}
			resp.Trace = append(resp.Trace, t)
			k.trace(t)
			return resp, nil
		}
		last = AsError(err)
		last.Message = Redact(last.Message, req.Token)
		t.Error = last.Code
		resp.Trace = append(resp.Trace, t)
		k.trace(t)
		if !retryable(last) || ctx.Err() != nil {
			break
		}
	}
	if ctx.Err() != nil && last.Code != CodeRateLimited {
		last = &Error{Code: CodeTimeout, Message: fmt.Sprintf("no answer within the connectors' time budget (last: %s)", last.Message), Status: last.Status}
	}
	return resp, last
}

// once is one attempt: the rate limit, then the request under its timeout.
func (k *Kernel) once(ctx context.Context, req Request, cached *entry) (body []byte, status int, etag string, err error) {
	if err := k.limiter.Wait(ctx); err != nil {
		return nil, 0, "", Errorf(CodeTimeout, "the rate limit would delay the request past the time left")
	}
	rctx, cancel := context.WithTimeout(ctx, k.opts.RequestTimeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(rctx, http.MethodGet, req.URL, nil)
	if err != nil {
		return nil, 0, "", Errorf(CodeNotConfigured, "the URL is not valid")
	}
	accept := req.Accept
	if accept == "" {
		accept = "application/json"
	}
	hr.Header.Set("Accept", accept)
	if req.Token != "" {
		hr.Header.Set("Authorization", "Bearer "+req.Token)
	}
	if cached != nil && cached.ETag != "" {
		hr.Header.Set("If-None-Match", cached.ETag)
	}
	res, err := k.opts.HTTP.Do(hr)
	if err != nil {
		if rctx.Err() != nil {
			return nil, 0, "", Errorf(CodeTimeout, "no answer within %s", k.opts.RequestTimeout)
		}
		// The transport's error names the URL, never the header; the URL's
		// query and user info are dropped all the same.
		return nil, 0, "", Errorf(CodeUnavailable, "%s could not be reached", traceTarget(req.URL))
	}
	defer res.Body.Close()
	status = res.StatusCode
	if status == http.StatusNotModified {
		return nil, status, "", nil
	}
	if e := statusError(res); e != nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10)) // lets the connection be reused
		return nil, status, "", e
	}
	body, err = io.ReadAll(io.LimitReader(res.Body, k.opts.MaxBodyBytes+1))
	if err != nil {
		if rctx.Err() != nil {
			return nil, status, "", Errorf(CodeTimeout, "the answer did not arrive within %s", k.opts.RequestTimeout)
		}
		return nil, status, "", Errorf(CodeUnavailable, "the answer was cut short")
	}
	if int64(len(body)) > k.opts.MaxBodyBytes {
		return nil, status, "", &Error{Code: CodeTooLarge, Status: status, Message: fmt.Sprintf("the answer is over %d bytes", k.opts.MaxBodyBytes)}
	}
	return body, status, res.Header.Get("ETag"), nil
}

// statusError maps a non-2xx status to its normalized error.
func statusError(res *http.Response) *Error {
	s := res.StatusCode
	switch {
	case s >= 200 && s < 300:
		return nil
	case s == http.StatusUnauthorized:
		return &Error{Code: CodeUnauthorized, Status: s, Message: "the server refused the token (401)"}
	case s == http.StatusForbidden:
		return &Error{Code: CodeForbidden, Status: s, Message: "the token's account may not read this (403)"}
	case s == http.StatusNotFound || s == http.StatusGone:
		return &Error{Code: CodeNotFound, Status: s, Message: fmt.Sprintf("not found (%d)", s)}
	case s == http.StatusTooManyRequests:
		return &Error{Code: CodeRateLimited, Status: s, RetryAfterSec: retryAfterSec(res.Header.Get("Retry-After")), Message: "the server rate-limited the request (429)"}
	case s >= 500:
		return &Error{Code: CodeUnavailable, Status: s, RetryAfterSec: retryAfterSec(res.Header.Get("Retry-After")), Message: fmt.Sprintf("the server failed (%d)", s)}
	default:
		return &Error{Code: CodeMalformed, Status: s, Message: fmt.Sprintf("the server refused the request (%d)", s)}
	}
}

// retryAfterSec reads Retry-After as seconds or an HTTP date; -1 when absent.
func retryAfterSec(v string) int {
	if v == "" {
		return -1
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return n
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return int((d + time.Second - 1) / time.Second)
		}
		return 0
	}
	return -1
}

func retryable(e *Error) bool {
	switch e.Code {
	case CodeRateLimited, CodeTimeout:
		return true
	case CodeUnavailable:
		return e.Status == 0 || e.Status == 502 || e.Status == 503 || e.Status == 504 || e.Status == 500
	}
	return false
}

// backoff is the wait before attempt n (1-based retry): exponential with
// jitter, capped, and never shorter than what Retry-After asked for.
func (k *Kernel) backoff(n int, last *Error) time.Duration {
	d := k.opts.BaseBackoff << (n - 1)
	if d > k.opts.MaxBackoff || d <= 0 {
		d = k.opts.MaxBackoff
	}
	d += time.Duration(rand.Int64N(int64(d)/2 + 1))
	if last != nil && last.RetryAfterSec >= 0 && (last.Code == CodeRateLimited || last.Code == CodeUnavailable) && last.Status != 0 {
		if ra := time.Duration(last.RetryAfterSec) * time.Second; ra > d {
			d = ra
		}
	}
	return d
}

func (k *Kernel) trace(t Trace) {
	ev := k.opts.Log.Debug()
	if t.Error != "" {
		ev = k.opts.Log.Info()
	}
	ev.Str("connector", t.Source).Str("target", t.Target).Int("attempt", t.Attempt).Int("status", t.Status).
		Str("cache", t.Cache).Int64("durationMs", t.DurationMs).Str("error", t.Error).Msg("connector request")
}

// traceTarget is a URL as traces and messages show it: host and path, no
// user info, no query.
func traceTarget(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(invalid URL)"
	}
	return u.Host + u.EscapedPath()
}

func ms(d time.Duration) int64 { return d.Milliseconds() }
