// Package requirements fetches the requirements a task names from where
// teams keep them: Jira tickets and OpenAPI operations, through the
// connector kernel, under one time budget. What it brings becomes a work's
// attachments, text for ranking and facts for policy; it decides nothing.
package requirements

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	neturl "net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/connector"
	"github.com/mcpc/mcpc/internal/connector/jira"
	"github.com/mcpc/mcpc/internal/connector/openapi"
)

// Requirements from where teams keep them (seed 000 §4 steps 3 and 6, §12,
// §13; seed 002 "Connector Model"): at initialize_work, before the store's
// transaction, the Jira tickets the prompt, lexemes or attachments name and
// the OpenAPI operations they reference are fetched through the connector
// kernel, under one time budget (connectors.timeoutMs). What was fetched
// becomes attachments of the work, text for ranking, and facts for policy
// (input.requirements): the strategy rules read hasSwagger and the tickets'
// fields, the citation rule the refs a plan may cite. A connector that fails
// never fails the turn: the pack lists an insufficiency with the reason and
// the remediation.

// Facts is input.requirements (docs/policy-input.md).
type Facts struct {
	// Fetched are the refs the work's pack holds, as plans cite them.
	Fetched FetchedRefs `json:"fetched"`
	// HasSwagger: an operation of an API contract was fetched.
	HasSwagger bool `json:"hasSwagger"`
	// Text is what the tickets add to the ContextSignature: summary,
	// issue type, labels, components (initialize_work only).
	Text     []string  `json:"text"`
	Failures []Failure `json:"failures"`
	// Trace is the connectors' requests: target, status, cache, duration.
	Trace []connector.Trace `json:"trace"`
}

type FetchedRefs struct {
	Jira    []string `json:"jira"`
	Swagger []string `json:"swagger"`
}

// Failure is a connector that did not deliver, as the pack's
// insufficiency and policy see it. Nothing in it comes from a credential.
type Failure struct {
	Source      string `json:"source"` // jira, swagger
	Ref         string `json:"ref"`    // the key or the spec
	Code        string `json:"code"`   // connector.Code*
	Message     string `json:"message"`
	Remediation string `json:"remediation"`
}

// Pack is context-pack.json's requirements: what was fetched
// and what could not be.
type Pack struct {
	Fetched         FetchedRefs `json:"fetched"`
	Insufficiencies []Failure   `json:"insufficiencies"`
}

// Fetch is what initialize_work's fetch brought.
type Fetch struct {
	Facts    Facts
	Items    []Item
	rankText []string
}

// RankTexts is what ranking reads of the fetched requirements; none when
// nothing was fetched (a turn ranked inside the lock fetches nothing).
func (f *Fetch) RankTexts() []string {
	if f == nil {
		return nil
	}
	return f.rankText
}

// Item becomes one attachment of the work.
type Item struct {
	Source, Ref, Type, Caption, File string
	Content                          json.RawMessage
}

// Fetcher fetches for one process: its connector kernel and the specs it
// parsed are made at the first fetch and shared by every later one.
type Fetcher struct {
	cfg   config.Connectors
	files connector.Files
	now   func() time.Time
	log   zerolog.Logger

	once   sync.Once
	kernel *connector.Kernel
	keys   *regexp.Regexp
	specs  sync.Map // sha256 of a spec's bytes -> *openapi.Spec
}

// New returns a Fetcher over the workspace's files (specs, the token file
// and the connector cache under .ai/tmp/connectors), with now as its clock.
func New(cfg config.Connectors, files connector.Files, now func() time.Time, log zerolog.Logger) *Fetcher {
	return &Fetcher{cfg: cfg, files: files, now: now, log: log}
}

func (r *Fetcher) init() {
	r.once.Do(func() {
		cfg := r.cfg
		cache := &connector.Cache{Files: r.files, Dir: ".ai/tmp/connectors", TTL: time.Duration(*cfg.CacheTTLSec) * time.Second, Now: r.now}
		retries := *cfg.MaxRetries
		if retries == 0 {
			retries = -1 // the kernel's "none"; its 0 is the default
		}
		r.kernel = connector.New(connector.Options{
			RequestTimeout: time.Duration(cfg.RequestTimeoutMs) * time.Millisecond, MaxRetries: retries,
			RatePerSec: cfg.RequestsPerSecond, Burst: 5, Cache: cache, Log: r.log,
		})
		r.keys = regexp.MustCompile(cfg.Jira.KeyPattern) // config.Load compiled it
	})
}

// Start begins fetching the requirements initialize_work's request names
// and returns the wait for them; it runs beside the index refresh, before
// the store's transaction.
func (r *Fetcher) Start(ctx context.Context, prompt string, lexemes, attachments []string) func() *Fetch {
	done := make(chan *Fetch, 1)
	go func() { done <- r.Fetch(ctx, prompt, lexemes, attachments) }()
	return func() *Fetch { return <-done }
}

// Fetch fetches within connectors.timeoutMs; it always returns.
func (r *Fetcher) Fetch(ctx context.Context, prompt string, lexemes, attachments []string) *Fetch {
	out := &Fetch{Facts: EmptyFacts()}
	cfg := r.cfg
	if cfg.Jira.BaseURL == "" && len(cfg.OpenAPI.Specs) == 0 {
		return out
	}
	began := time.Now()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Duration(cfg.TimeoutMs)*time.Millisecond)
	defer cancel()
	r.init()
	var keys []string
	if cfg.Jira.BaseURL != "" {
		keys = jira.Keys(r.keys, cfg.Jira.MaxIssues, append(append([]string{prompt}, lexemes...), attachments...)...)
	}
	token := r.jiraToken()
	issues := make([]jiraResult, len(keys))
	specs := make([]specResult, len(cfg.OpenAPI.Specs))
	var wg sync.WaitGroup
	for i, key := range keys {
		wg.Go(func() {
			is, res, err := jira.Fetch(ctx, r.kernel, jira.Config{BaseURL: cfg.Jira.BaseURL, Token: token,
				AcceptanceCriteriaFields: cfg.Jira.AcceptanceCriteriaFields}, key)
			issues[i] = jiraResult{issue: is, trace: res.Trace, err: err}
		})
	}
	for i, name := range cfg.OpenAPI.Specs {
		wg.Go(func() { specs[i] = r.loadSpec(ctx, name) })
	}
	wg.Wait()
	for i, key := range keys {
		res := issues[i]
		out.Facts.Trace = append(out.Facts.Trace, res.trace...)
		if res.err != nil {
			out.fail(jira.Source, key, res.err, jiraRemediation(cfg.Jira.TokenFile, cfg.Jira.TokenEnv, key, cfg.TimeoutMs), token)
			continue
		}
		out.addIssue(res.issue, cfg.MaxAttachmentBytes)
	}
	seen := map[string]bool{}
	for i, name := range cfg.OpenAPI.Specs {
		res := specs[i]
		out.Facts.Trace = append(out.Facts.Trace, res.trace...)
		if res.err != nil {
			shown := specName(name)
			out.fail(openapi.Source, shown, res.err, specRemediation(shown, cfg.TimeoutMs), token, name)
			continue
		}
		for _, op := range res.spec.Match(prompt, lexemes, cfg.OpenAPI.MaxOperations) {
			if seen[op.Ref()] || len(out.Facts.Fetched.Swagger) >= cfg.OpenAPI.MaxOperations {
				continue
			}
			seen[op.Ref()] = true
			out.addOperation(res.spec, op, cfg.MaxAttachmentBytes)
		}
	}
	out.Facts.HasSwagger = len(out.Facts.Fetched.Swagger) > 0
	r.log.Debug().Int("tickets", len(out.Facts.Fetched.Jira)).Int("operations", len(out.Facts.Fetched.Swagger)).
		Int("failures", len(out.Facts.Failures)).Dur("took", time.Since(began)).Msg("requirements fetched")
	return out
}

type jiraResult struct {
	issue *jira.Issue
	trace []connector.Trace
	err   error
}

type specResult struct {
	spec  *openapi.Spec
	trace []connector.Trace
	err   error
}

func EmptyFacts() Facts {
	return Facts{Fetched: FetchedRefs{Jira: []string{}, Swagger: []string{}}, Text: []string{},
		Failures: []Failure{}, Trace: []connector.Trace{}}
}

func (f *Fetch) fail(source, ref string, err error, remediation func(code string) string, secrets ...string) {
	e := connector.AsError(err)
	msg := connector.Redact(e.Message, secrets...)
	if e.Code == connector.CodeRateLimited && e.RetryAfterSec > 0 {
		msg += fmt.Sprintf(" (Retry-After: %d s)", e.RetryAfterSec)
	}
	f.Facts.Failures = append(f.Facts.Failures, Failure{Source: source, Ref: ref, Code: e.Code,
		Message: msg, Remediation: remediation(e.Code)})
}

func (f *Fetch) addIssue(is *jira.Issue, maxBytes int) {
	raw, _ := json.Marshal(is)
	for len(raw) > maxBytes && len(is.Description) > 64 {
		is.Description = clipText(is.Description, len(is.Description)/2)
		raw, _ = json.Marshal(is)
	}
	f.Facts.Fetched.Jira = append(f.Facts.Fetched.Jira, is.Key)
	f.Facts.Text = append(f.Facts.Text, is.Summary, is.IssueType)
	f.Facts.Text = append(append(f.Facts.Text, is.Labels...), is.Components...)
	f.rankText = append(f.rankText, is.Text()...)
	f.Items = append(f.Items, Item{Source: jira.Source, Ref: is.Key, Type: "jira_issue",
		Caption: is.Key + ": " + is.Summary, File: "jira-" + is.Key + ".json", Content: raw})
}

func (f *Fetch) addOperation(s *openapi.Spec, op *openapi.Operation, maxBytes int) {
	_, raw := s.Slice(op, maxBytes)
	f.Facts.Fetched.Swagger = append(f.Facts.Fetched.Swagger, op.Ref())
	f.rankText = append(f.rankText, op.Text()...)
	caption := op.Ref()
	if op.Summary != "" {
		caption += ": " + op.Summary
	}
	f.Items = append(f.Items, Item{Source: openapi.Source, Ref: op.Ref(), Type: "openapi_operation",
		Caption: caption, File: fmt.Sprintf("swagger-%03d-%s.json", len(f.Facts.Fetched.Swagger), fileSafe(op.Method+"-"+op.Path)),
		Content: raw})
}

// unsafeInFileName is what an operation loses as a file name's part.
var unsafeInFileName = regexp.MustCompile(`[^a-z0-9-]+`)

func fileSafe(s string) string { return unsafeInFileName.ReplaceAllString(strings.ToLower(s), "") }

func clipText(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// maxSpecBytes bounds one API contract.
const maxSpecBytes = 32 << 20

// loadSpec reads and parses one spec (a workspace file or a URL); a spec
// already parsed (same bytes) is reused.
func (r *Fetcher) loadSpec(ctx context.Context, name string) specResult {
	var (
		data []byte
		res  specResult
	)
	url := name
	name = specName(name) // what messages, slices and the index show of it
	if u, err := neturl.Parse(url); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		got, err := r.kernel.Get(ctx, connector.Request{Source: "openapi", URL: url, Accept: "application/json, application/yaml, text/yaml, */*"})
		res.trace = got.Trace
		if err != nil {
			res.err = err
			return res
		}
		data = got.Body
	} else {
		got, err := r.files.ReadFile(url, maxSpecBytes)
		if err != nil {
			code := connector.CodeNotFound
			if !errors.Is(err, fs.ErrNotExist) {
				code = connector.CodeMalformed
			}
			res.err = connector.Errorf(code, "%s could not be read from the workspace", name)
			return res
		}
		data = got
	}
	sum := sha256.Sum256(data)
	maxBytes := r.cfg.MaxAttachmentBytes
	key := fmt.Sprintf("%x-%d", sum[:16], maxBytes)
	if s, ok := r.specs.Load(key); ok {
		res.spec = s.(*openapi.Spec)
		return res
	}
	// A spec another process parsed is read back from its index: parsing
	// 500 operations costs kin-openapi a few hundred milliseconds, and
	// every stdio client is a new process.
	indexFile := ".ai/tmp/connectors/openapi-" + key + ".index.json"
	if raw, err := r.files.ReadFile(indexFile, maxSpecIndexBytes); err == nil {
		var ix specIndex
		if json.Unmarshal(raw, &ix) == nil && ix.Name == name && len(ix.Entries) > 0 {
			res.spec = openapi.FromEntries(ix.Name, ix.Version, ix.Entries)
			r.specs.Store(key, res.spec)
			return res
		}
	}
	parsed := make(chan specResult, 1)
	go func() {
		s, err := openapi.Parse(name, data)
		parsed <- specResult{spec: s, err: err}
	}()
	select {
	case p := <-parsed:
		res.spec, res.err = p.spec, p.err
	case <-ctx.Done():
		res.err = connector.Errorf(connector.CodeTimeout, "%s was not parsed within the connectors' time budget", name)
		return res
	}
	if res.err != nil {
		return res
	}
	r.specs.Store(key, res.spec)
	spec := res.spec
	// The index is written off the turn's path: rendering every operation
	// is for the next process.
	go func() {
		raw, err := json.Marshal(specIndex{Name: spec.Name, Version: spec.Version, Entries: spec.Entries(maxBytes)})
		if err == nil && len(raw) <= maxSpecIndexBytes {
			err = r.files.WriteFileAtomic(indexFile, raw, true)
		}
		if err != nil {
			r.log.Debug().Err(err).Str("spec", name).Msg("the spec's index was not written; the next process parses it")
		}
	}()
	return res
}

// specIndex is a parsed spec's operations as later processes read them
// back, under .ai/tmp/connectors (keyed by the spec's hash and the slice
// bound).
type specIndex struct {
	Name    string          `json:"name"`
	Version string          `json:"version"`
	Entries []openapi.Entry `json:"entries"`
}

// maxSpecIndexBytes bounds an index read back.
const maxSpecIndexBytes = 64 << 20

// specName is a spec as messages and the pack show it: a URL loses its
// user info and query, where credentials are sometimes put.
func specName(name string) string {
	u, err := neturl.Parse(name)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return name
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}

// jiraToken reads the token from the environment, then the token file; it
// is kept nowhere else.
func (r *Fetcher) jiraToken() string {
	j := r.cfg.Jira
	if v := strings.TrimSpace(os.Getenv(j.TokenEnv)); v != "" {
		return v
	}
	var (
		raw []byte
		err error
	)
	if filepath.IsAbs(j.TokenFile) {
		raw, err = readBounded(j.TokenFile, 64<<10)
	} else {
		raw, err = r.files.ReadFile(j.TokenFile, 64<<10)
	}
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(raw))
}

func readBounded(name string, max int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

func jiraRemediation(tokenFile, tokenEnv, key string, timeoutMs int) func(string) string {
	return func(code string) string {
		switch code {
		case connector.CodeNotConfigured:
			return fmt.Sprintf("Put a Jira API token in %s (or the %s environment variable) and start the work again.", tokenFile, tokenEnv)
		case connector.CodeUnauthorized:
			return fmt.Sprintf("Set a valid token in %s (or %s): Jira refused the one configured (expired or revoked).", tokenFile, tokenEnv)
		case connector.CodeForbidden:
			return fmt.Sprintf("Give the token's account permission to browse %s's project, or use a token that has it.", key)
		case connector.CodeNotFound:
			return fmt.Sprintf("Check that %s exists on the configured Jira site (connectors.jira.baseUrl) and that the token's account can see it.", key)
		case connector.CodeRateLimited:
			return "Jira rate-limited mcpc past its retries: start the work again after the Retry-After, or lower connectors.requestsPerSecond."
		case connector.CodeTimeout:
			return fmt.Sprintf("Jira did not answer within connectors.timeoutMs (%d ms): check connectors.jira.baseUrl, or raise the timeout.", timeoutMs)
		case connector.CodeMalformed, connector.CodeTooLarge:
			return fmt.Sprintf("The answer for %s was not a Jira Cloud issue: check that connectors.jira.baseUrl is the site's root URL.", key)
		}
		return "Jira could not be reached: check connectors.jira.baseUrl and the network, then start the work again."
	}
}

func specRemediation(name string, timeoutMs int) func(string) string {
	return func(code string) string {
		switch code {
		case connector.CodeNotFound:
			return fmt.Sprintf("Fix connectors.openapi.specs: %s does not exist.", name)
		case connector.CodeMalformed, connector.CodeTooLarge:
			return fmt.Sprintf("Fix %s: it must be an OpenAPI 3.0/3.1 or Swagger 2.0 document (YAML or JSON) without external refs.", name)
		case connector.CodeTimeout:
			return fmt.Sprintf("%s was not loaded within connectors.timeoutMs (%d ms): raise it or serve the spec faster.", name, timeoutMs)
		case connector.CodeUnauthorized, connector.CodeForbidden:
			return fmt.Sprintf("%s refused mcpc: make the spec readable without credentials or commit it to the repository.", name)
		}
		return fmt.Sprintf("%s could not be fetched: check the URL and the network, then start the work again.", name)
	}
}
