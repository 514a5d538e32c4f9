package controller

import (
	"runtime"
	"slices"
	"sync"

	"github.com/mcpc/mcpc/internal/secrets"
)

// secretDetector is built once per process, on the first pack: compiling
// gitleaks' rule set takes tens of milliseconds no read turn should pay.
var secretDetector = sync.OnceValues(secrets.NewDetector)

// markSecrets scans each candidate's content and reports the rules that
// matched as its SecretFindings (never the secret itself); the pack policy
// leaves out a candidate with findings, and one left unscanned (nil: the
// file could not be read within the detector's cap, or there is no
// detector), without naming it. A secret's name does not always give it away
// (a key pasted into notes, a token in a script), and the name rules cannot
// know every name.
//
// It runs when a pack is built (initialize_work, escalate), before the
// turn's transaction, on every core: about a millisecond per file.
func (c *Controller) markSecrets(cands []Candidate) {
	det, err := secretDetector()
	if err != nil {
		c.log.Error().Err(err).Msg("secret detector unavailable: no candidate enters the pack")
		return
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(cands)) {
		wg.Go(func() {
			for i := range next {
				cands[i].SecretFindings = c.scanFile(det, cands[i].File)
			}
		})
	}
	for i := range cands {
		next <- i
	}
	close(next)
	wg.Wait()
}

// scanFile returns the distinct rules that matched the file's content, or
// nil when it could not be scanned. Content found clean is remembered by
// hash, so reading it later costs no second scan.
func (c *Controller) scanFile(det *secrets.Detector, file string) []string {
	data, err := c.paths.ReadFile(file, secrets.MaxScanBytes)
	if err != nil {
		return nil
	}
	ids := []string{}
	for _, f := range det.Scan(data) {
		if !slices.Contains(ids, f.RuleID) {
			ids = append(ids, f.RuleID)
		}
	}
	if len(ids) == 0 {
		c.cleanScans.Store(file, sha256Hex(data))
	}
	slices.Sort(ids)
	return ids
}

// readable is what a read verb may return of a pack file's content: the
// content itself when it is what the pack's scan found clean, else the
// content with each secret redacted. A pack file can gain a secret after
// the pack was built (a patch, a person's edit); the read then gets
// [REDACTED:<rule>] where the secret was, line numbers unchanged, rather
// than a denial: the rest of the file is what the agent works on.
//
// Redacting is chosen over a Rego rule on a content fact because the fact
// would have to be gathered before the decision, on every read turn,
// scanning the file each time; here an unchanged file costs one hash
// comparison (the read hashes the content anyway) and only a changed one is
// scanned. Should the detector be unavailable, nothing unscanned is
// returned.
func (c *Controller) readable(file string, data []byte, hash string) []byte {
	if clean, ok := c.cleanScans.Load(file); ok && clean == hash {
		return data
	}
	det, err := secretDetector()
	if err != nil {
		c.log.Error().Err(err).Msg("secret detector unavailable: content withheld")
		return []byte("[REDACTED:" + secrets.TooLargeRule + "]")
	}
	red := det.Redact(data)
	if len(red) == len(data) && string(red) == string(data) {
		c.cleanScans.Store(file, hash)
	}
	return red
}
