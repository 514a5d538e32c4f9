package controller

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"regexp"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/mcpc/mcpc/internal/secrets"
)

// keyMaterial is what the sandbox masks by content (checked on every
// sandboxed command, each file read again only when it changed): private
// keys and AWS secret keys. Packs and reads use the full detector below.
var keyMaterial = keyMaterialMatcher{pattern: regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?i:aws_secret_access_key)\s*[=:]`)}

// keyMaterialMatcher runs its pattern only on content that can match it.
// A new process's first sandboxed run reads every small file of the
// worktree, and the pattern's case-insensitive half leaves Go's regexp no
// literal to skip ahead by: at 47,550 files that scan was 36 of the 41
// CPU-seconds a new serve process took to open. mayHoldKeyMaterial is a
// necessary condition of a match, so the answer is the pattern's.
type keyMaterialMatcher struct{ pattern *regexp.Regexp }

func (k keyMaterialMatcher) Match(content []byte) bool {
	return mayHoldKeyMaterial(content) && k.pattern.Match(content)
}

// String names the matcher in the sandbox's scan cache: verdicts an mcpc
// with another pattern kept are not this one's. The prefilter answers as
// the pattern does, so the pattern alone names it.
func (k keyMaterialMatcher) String() string { return k.pattern.String() }

// keyScanFile keeps the sandbox's key-material verdicts between processes,
// in the state folder: masked in the sandbox, out of an agent's scope, so
// neither can mark a secret file clean. Without it a new process's first
// validation command read every small file of the worktree (3 CPU-s at
// 47,870 files). It holds the masking globs' verdicts too, by path under
// the glob set's identity (the first Command's other 0.2 CPU-s).
// Processes sharing a worktree each replace it whole; the verdicts are by
// stamp or by path, so whichever is kept is true.
const keyScanFile = ".ai/tmp/sandbox-keyscan"

// maxKeyScanFile bounds the cache read back: about 70 bytes a file.
const maxKeyScanFile = 256 << 20

// keyScanCache is the sandbox.ScanCache in keyScanFile, read and written
// without following links.
type keyScanCache struct{ c *Controller }

func (k keyScanCache) Load() []byte {
	data, err := k.c.paths.ReadFile(keyScanFile, maxKeyScanFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		k.c.log.Warn().Err(err).Msg("the sandbox's kept key scan is unreadable: the worktree is read again")
	}
	return data
}

func (k keyScanCache) Save(data []byte) {
	if err := k.c.paths.WriteFileAtomic(keyScanFile, data, true); err != nil {
		k.c.log.Warn().Err(err).Msg("the sandbox's key scan was not kept: the next process reads the worktree again")
	}
}

// mayHoldKeyMaterial reports whether content holds "-----BEGIN " or
// "aws_secret_access_key" in any ASCII case. Of the name's letters, (?i)
// folds only s and k into runes past ASCII (the long s and the Kelvin
// sign), so content holding either is left to the pattern; translation
// catalogues, with their other accented letters, are not.
func mayHoldKeyMaterial(content []byte) bool {
	if bytes.Contains(content, []byte("-----BEGIN ")) {
		return true
	}
	const name = "aws_secret_access_key"
	for i := bytes.IndexByte(content, '_'); i >= 0; {
		if start := i - 3; start >= 0 && start+len(name) <= len(content) && asciiEqualFold(content[start:start+len(name)], name) {
			return true
		}
		next := bytes.IndexByte(content[i+1:], '_')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return bytes.Contains(content, []byte("\u017f")) || bytes.Contains(content, []byte("\u212a"))
}

func asciiEqualFold(b []byte, lower string) bool {
	for i := range len(lower) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// secretDetector is built once per process, on the first scan the pack
// cache cannot answer or the first read to redact: compiling gitleaks'
// rule set takes tens of milliseconds no read turn should pay.
var secretDetector = secrets.Default

// packScanFile keeps markSecrets' verdicts between processes, by content
// hash under the rule set's identity (secrets.Cache): without it each new
// process ran the rules over the pack's 40 files again on its first turn,
// 0.2 to 0.4 CPU-s. It is in the state folder, which an agent cannot write
// and the sandbox masks, for the same reason as keyScanFile.
const packScanFile = ".ai/tmp/pack-secretscan"

// maxPackScanFile bounds the cache read back (secrets.Cache keeps 4,096
// verdicts, about 50 bytes each when clean).
const maxPackScanFile = 16 << 20

// packScanCache is the secrets.Store in packScanFile, read and written
// without following links; a write replaces it whole (temporary file and
// rename), so processes saving at once leave one's verdicts, never a mix.
type packScanCache struct{ c *Controller }

func (k packScanCache) Load() []byte {
	data, err := k.c.paths.ReadFile(packScanFile, maxPackScanFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		k.c.log.Warn().Err(err).Msg("the pack's kept secret scan is unreadable: its files are scanned again")
	}
	return data
}

func (k packScanCache) Save(data []byte) {
	if err := k.c.paths.WriteFileAtomic(packScanFile, data, true); err != nil {
		k.c.log.Warn().Err(err).Msg("the pack's secret scan was not kept: the next process scans its files again")
	}
}

// markSecrets scans each candidate's content and reports the rules that
// matched as its SecretFindings (never the secret itself); the pack policy
// leaves out a candidate with findings, and one left unscanned (nil: the
// file could not be read within the detector's cap, or there is no
// detector), without naming it. A secret's name does not always give it away
// (a key pasted into notes, a token in a script), and the name rules cannot
// know every name.
//
// It runs when a pack is built (initialize_work, escalate), before the
// turn's transaction, on every core: about 0.1 ms per KiB, within
// packScanBudget for the whole pack, and nothing for content an earlier
// scan (of this process or another) kept a verdict on (packScans).
// Content built to make every rule run costs 300 times that; a candidate
// whose scan the budget cut short is reported with mcpc-scan-incomplete
// and left out.
func (c *Controller) markSecrets(ctx context.Context, cands []Candidate) {
	ctx, cancel := context.WithTimeout(ctx, packScanBudget)
	defer cancel()
	next := make(chan int)
	var wg sync.WaitGroup
	var failed sync.Once
	for range min(runtime.GOMAXPROCS(0), len(cands)) {
		wg.Go(func() {
			for i := range next {
				ids, err := c.scanFile(ctx, cands[i].File)
				if err != nil {
					failed.Do(func() {
						c.log.Error().Err(err).Msg("secret detector unavailable: no unscanned candidate enters the pack")
					})
				}
				cands[i].SecretFindings = ids
			}
		})
	}
	for i := range cands {
		next <- i
	}
	close(next)
	wg.Wait()
	c.packScans.Save()
}

// scanFile returns the distinct rules that matched the file's content, or
// nil when it could not be scanned (the error is the detector's). Content
// found clean is remembered by hash, so reading it later costs no second
// scan.
func (c *Controller) scanFile(ctx context.Context, file string) ([]string, error) {
	data, err := c.paths.ReadFile(file, secrets.MaxScanBytes)
	if err != nil {
		return nil, nil
	}
	found, err := c.packScans.ScanContext(ctx, data)
	if err != nil {
		return nil, err
	}
	ids := []string{}
	for _, f := range found {
		if !slices.Contains(ids, f.RuleID) {
			ids = append(ids, f.RuleID)
		}
	}
	if len(ids) == 0 {
		c.cleanScans.Store(file, sha256Hex(data))
	}
	slices.Sort(ids)
	return ids, nil
}

// Time budgets of the secret scan. A pack's scan, and a read's made ahead
// of the turn's transaction (readAhead), run outside the store's write
// lock; a read made under the lock (its file changed since it was read
// ahead) is short. What a scan could not reach is withheld.
const (
	packScanBudget      = 2 * time.Second
	readAheadScanBudget = 2 * time.Second
	readScanBudget      = 250 * time.Millisecond
)

// redaction is a read's redacted content, kept for the content hash it was
// made from.
type redaction struct {
	hash    string
	content []byte
}

// readable is what a read verb may return of a pack file's content: the
// content itself when it is what a scan found clean, else the content with
// each secret redacted. A pack file can gain a secret after the pack was
// built (a patch, a person's edit); the read then gets [REDACTED:<rule>]
// where the secret was, line numbers unchanged, rather than a denial: the
// rest of the file is what the agent works on.
//
// Redacting is chosen over a Rego rule on a content fact because the fact
// would have to be gathered before the decision, on every read turn,
// scanning the file each time; here an unchanged file costs one hash
// comparison (the read hashes the content anyway), and a changed one is
// scanned once per content: the result is kept by hash. The scan stops at
// deadline (readScanBudget, or a search's own); lines it did not reach are
// withheld. Should the detector be unavailable, nothing is returned.
func (c *Controller) readable(file string, data []byte, hash string, deadline time.Time) []byte {
	if clean, ok := c.cleanScans.Load(file); ok && clean == hash {
		return data
	}
	if r, ok := c.redactions.Load(file); ok && r.(redaction).hash == hash {
		return r.(redaction).content
	}
	det, err := secretDetector()
	if err != nil {
		c.log.Error().Err(err).Msg("secret detector unavailable: content withheld")
		return []byte("[REDACTED:" + secrets.IncompleteRule + "]")
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	red := det.RedactContext(ctx, data)
	switch {
	case len(red) == len(data) && string(red) == string(data):
		c.cleanScans.Store(file, hash)
		c.redactions.Delete(file)
	case ctx.Err() == nil && len(data) <= maxKeptRedaction:
		c.redactions.Store(file, redaction{hash: hash, content: red})
	}
	return red
}

// maxKeptRedaction bounds the redactions kept (one per pack file); a larger
// file is redacted again on each read, within its budget. A redaction cut
// short by its deadline is never kept.
const maxKeptRedaction = 1 << 20
