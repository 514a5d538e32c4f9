package secrets

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/rs/zerolog"
	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
	"github.com/zricethezav/gitleaks/v8/report"
)

// rulesTOML holds mcpc's own rules, in gitleaks' config format.
//
//go:embed rules.toml
var rulesTOML string

// MaxScanBytes bounds what Scan and Redact read of one content. A larger
// content is scanned up to the cap and reported with TooLargeRule, so a
// caller fails closed rather than trusting an unscanned tail.
const MaxScanBytes = 8 << 20

// chunkBytes is the size of one piece handed to gitleaks. Its rules run on
// a whole piece, and content stuffed with every rule's keyword makes all of
// them run: about 35 ms per KiB on the 2-core build machine. A piece bounds
// that work between two checks of the caller's deadline (about 140 ms).
// Pieces end at a newline, else at a separator, so a secret is not cut in
// two; a private key spanning two pieces is caught by its head and its tail
// (rules.toml).
const chunkBytes = 4 << 10

// TooLargeRule is the rule id of the finding for content over MaxScanBytes.
const TooLargeRule = "mcpc-too-large-to-scan"

// IncompleteRule is the rule id of the finding for content whose scan ran
// out of the caller's time (ScanContext, RedactContext).
const IncompleteRule = "mcpc-scan-incomplete"

// Finding is one secret found: which rule matched and on which lines
// (1-based, inclusive). It never holds the secret itself.
type Finding struct {
	RuleID, Description string
	StartLine, EndLine  int
}

// Detector finds secrets by content. Build it once (compiling the rule set
// takes tens of milliseconds); it is safe for concurrent use.
type Detector struct {
	gl *detect.Detector
}

// keywordOverrides narrow the prefilter of default rules whose keywords
// occur in nearly all code, so that their (slow, prefix-less) regex ran on
// every file: vault-service-token's "s." (as in "this.") cost two thirds of
// a 200-file pack's scan. Legacy Vault tokens (s.<24 chars>, before Vault
// 1.10) are still caught where the file says "vault"; current ones by
// "hvs.".
var keywordOverrides = map[string][]string{
	"vault-service-token": {"hvs.", "vault"},
}

var quietLogs sync.Once

// ruleSet is what a Detector is built from. Its identity names the
// verdicts a Cache keeps: content scanned under other rules is scanned
// again.
type ruleSet struct {
	defaults  string              // gitleaks' default config (TOML)
	own       string              // mcpc's rules (rules.toml)
	overrides map[string][]string // keywordOverrides
}

// defaultRules is what NewDetector builds.
var defaultRules = ruleSet{defaults: config.DefaultConfig, own: rulesTOML, overrides: keywordOverrides}

// NewDetector builds a detector with gitleaks' default rules and mcpc's own
// (rules.toml).
func NewDetector() (*Detector, error) { return defaultRules.build() }

// Default is the process's detector of the default rules, built on first
// use: compiling the rule set takes tens of milliseconds, which a process
// should pay once, and not at all when its Cache answers every scan.
func Default() (*Detector, error) { return defaultDetector() }

var defaultDetector = sync.OnceValues(NewDetector)

func (rs ruleSet) build() (*Detector, error) {
	// gitleaks logs to stderr, which is an MCP client's log stream; its
	// messages (skipped files, slow fragments) are of no use to mcpc.
	quietLogs.Do(func() { logging.Logger = logging.Logger.Level(zerolog.Disabled) })
	cfg, err := loadConfig(rs.defaults)
	if err != nil {
		return nil, fmt.Errorf("secrets: gitleaks default rules: %w", err)
	}
	own, err := loadConfig(rs.own)
	if err != nil {
		return nil, fmt.Errorf("secrets: rules.toml: %w", err)
	}
	for _, id := range own.OrderedRules {
		if _, dup := cfg.Rules[id]; dup {
			return nil, fmt.Errorf("secrets: rules.toml: rule %s is also a default rule", id)
		}
		rule := own.Rules[id]
		cfg.Rules[id] = rule
		cfg.OrderedRules = append(cfg.OrderedRules, id)
		for _, k := range rule.Keywords {
			cfg.Keywords[k] = struct{}{}
		}
	}
	for id, keywords := range rs.overrides {
		rule, ok := cfg.Rules[id]
		if !ok {
			return nil, fmt.Errorf("secrets: keyword override for %s, which is not a rule", id)
		}
		rule.Keywords = keywords
		cfg.Rules[id] = rule
	}
	cfg.Keywords = map[string]struct{}{}
	for _, rule := range cfg.Rules {
		for _, k := range rule.Keywords {
			cfg.Keywords[k] = struct{}{}
		}
	}
	gl := detect.NewDetector(cfg)
	// No decoding passes: each costs a full rescan, and the one encoded form
	// that matters here (base64 PEM in Kubernetes Secrets) has its own rule.
	// (maxDecodeDepth is part of the rule set's identity.)
	gl.MaxDecodeDepth = maxDecodeDepth
	return &Detector{gl: gl}, nil
}

const maxDecodeDepth = 0

// loadConfig parses one gitleaks TOML config with a viper of its own (the
// package-level viper gitleaks' helpers use is shared global state).
func loadConfig(text string) (config.Config, error) {
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(text)); err != nil {
		return config.Config{}, err
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		return config.Config{}, err
	}
	if vc.Extend.UseDefault || vc.Extend.Path != "" {
		return config.Config{}, fmt.Errorf("[extend] is not supported")
	}
	return vc.Translate()
}

// Scan returns the secrets in content, in line order. It takes as long as
// the content needs; ScanContext bounds it.
func (d *Detector) Scan(content []byte) []Finding {
	return d.ScanContext(context.Background(), content)
}

// ScanContext is Scan within ctx: when ctx ends first, the rest of the
// content is reported as one IncompleteRule finding, so a caller fails
// closed rather than trusting what was not scanned.
func (d *Detector) ScanContext(ctx context.Context, content []byte) []Finding {
	var out []Finding
	line0 := 0 // lines before the piece
	parts, covered := pieces(content)
	for i, piece := range parts {
		if ctx.Err() != nil {
			out = append(out, Finding{
				RuleID: IncompleteRule, Description: "the scan ran out of time here; the rest was not scanned",
				StartLine: line0 + 1, EndLine: line0 + 1 + countLines(parts[i:]),
			})
			break
		}
		for _, f := range d.gl.DetectBytes(piece) {
			out = append(out, Finding{
				RuleID: f.RuleID, Description: f.Description,
				StartLine: line0 + f.StartLine + 1, EndLine: line0 + f.EndLine + 1,
			})
		}
		line0 += bytes.Count(piece, []byte{'\n'})
	}
	if covered < len(content) {
		out = append(out, Finding{
			RuleID:      TooLargeRule,
			Description: fmt.Sprintf("content past %d bytes was not scanned", MaxScanBytes),
			StartLine:   line0 + 1, EndLine: line0 + 1,
		})
	}
	slices.SortStableFunc(out, func(a, b Finding) int { return a.StartLine - b.StartLine })
	return out
}

func countLines(parts [][]byte) int {
	n := 0
	for _, p := range parts {
		n += bytes.Count(p, []byte{'\n'})
	}
	return n
}

// Redact returns content with each secret replaced by [REDACTED:<ruleID>]
// (followed by the line breaks the secret spanned, so line numbers hold);
// content past MaxScanBytes is replaced whole, by one
// [REDACTED:mcpc-too-large-to-scan]. Content without secrets is returned as
// it is. RedactContext bounds its time.
func (d *Detector) Redact(content []byte) []byte {
	return d.RedactContext(context.Background(), content)
}

// RedactContext is Redact within ctx: when ctx ends first, each line not
// yet scanned becomes [REDACTED:mcpc-scan-incomplete].
func (d *Detector) RedactContext(ctx context.Context, content []byte) []byte {
	parts, covered := pieces(content)
	var out bytes.Buffer
	changed := false
	for _, piece := range parts {
		if ctx.Err() != nil {
			out.Write(withheld(piece))
			changed = true
			continue
		}
		if findings := d.gl.DetectBytes(piece); len(findings) > 0 {
			piece = redactPiece(piece, findings)
			changed = true
		}
		out.Write(piece)
	}
	if covered < len(content) {
		out.WriteString("[REDACTED:" + TooLargeRule + "]")
		changed = true
	}
	if !changed {
		return content
	}
	return out.Bytes()
}

// withheld stands for a piece that was not scanned: one mark per line.
func withheld(piece []byte) []byte {
	lines := bytes.SplitAfter(piece, []byte{'\n'})
	var out bytes.Buffer
	for _, l := range lines {
		if len(l) == 0 {
			continue
		}
		out.WriteString("[REDACTED:" + IncompleteRule + "]")
		if bytes.HasSuffix(l, []byte{'\n'}) {
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}

// pieces cuts the first MaxScanBytes of content into pieces of at most
// chunkBytes, each ending at a newline, else after a separator, where the
// piece has one, and says how many bytes they cover.
func pieces(content []byte) ([][]byte, int) {
	limit := min(len(content), MaxScanBytes)
	var out [][]byte
	for start := 0; start < limit; {
		end := min(start+chunkBytes, limit)
		if end < limit {
			window := content[start:end]
			if cut := bytes.LastIndexByte(window, '\n'); cut >= 0 {
				end = start + cut + 1
			} else if cut := bytes.LastIndexAny(window, " \t,;\"'`<>"); cut >= 0 {
				end = start + cut + 1
			}
		}
		out = append(out, content[start:end])
		start = end
	}
	return out, limit
}

// mark is what stands for a secret: its rule, then as many line breaks as
// the secret spanned, so the lines after it keep their numbers (a reader
// asks for line ranges).
func mark(ruleID, secret string) string {
	return "[REDACTED:" + ruleID + "]" + strings.Repeat("\n", strings.Count(secret, "\n"))
}

// redactPiece replaces each finding's secret in chunk; a secret that cannot
// be located verbatim takes its whole lines with it.
func redactPiece(chunk []byte, findings []report.Finding) []byte {
	// Longest first, so a secret inside another one's match is not left
	// half-replaced.
	slices.SortStableFunc(findings, func(a, b report.Finding) int { return len(b.Match) - len(a.Match) })
	text := string(chunk)
	var lost []report.Finding
	for _, f := range findings {
		switch {
		case f.Secret != "" && strings.Contains(text, f.Secret):
			text = strings.ReplaceAll(text, f.Secret, mark(f.RuleID, f.Secret))
		case f.Match != "" && strings.Contains(text, f.Match):
			text = strings.ReplaceAll(text, f.Match, mark(f.RuleID, f.Match))
		default:
			lost = append(lost, f)
		}
	}
	if len(lost) == 0 {
		return []byte(text)
	}
	lines := strings.SplitAfter(text, "\n")
	for _, f := range lost {
		for i := f.StartLine; i <= f.EndLine && i < len(lines); i++ {
			if i >= 0 {
				nl := ""
				if strings.HasSuffix(lines[i], "\n") {
					nl = "\n"
				}
				lines[i] = "[REDACTED:" + f.RuleID + "]" + nl
			}
		}
	}
	return []byte(strings.Join(lines, ""))
}
