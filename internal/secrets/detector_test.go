package secrets

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// loadForm reads a testdata form without its split markers (testdata/README.md).
func loadForm(t testing.TB, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "forms", name))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.ReplaceAll(raw, []byte("@@"), nil)
}

var shared = sync.OnceValues(NewDetector)

func detector(t testing.TB) *Detector {
	t.Helper()
	d, err := shared()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func ruleIDs(fs []Finding) []string {
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.RuleID)
	}
	return ids
}

func TestScanForms(t *testing.T) {
	tests := []struct {
		note  string
		file  string
		rules []string // each must be among the findings
		line  int      // the first finding's StartLine, 0 to skip
		count int      // how many findings, 0 to skip
	}{
		{note: "AWS CLI output", file: "aws-cli-output.json", rules: []string{"aws-access-token", "mcpc-aws-secret-access-key"}, line: 4},
		{note: "AWS credentials file", file: "aws-credentials.ini", rules: []string{"aws-access-token", "mcpc-aws-secret-access-key"}, line: 2},
		{note: "Azure storage connection string", file: "appsettings.json", rules: []string{"mcpc-azure-storage-connection-string"}, line: 4},
		{note: "Kubernetes TLS secret", file: "k8s-tls-secret.yaml", rules: []string{"mcpc-kubernetes-base64-private-key"}, line: 8},
		{note: "GitHub token", file: "deploy.sh", rules: []string{"github-pat"}, line: 3},
		{note: "Slack bot token", file: "notify.py", rules: []string{"slack-bot-token"}, line: 3},
		{note: "Stripe live key", file: "billing.ts", rules: []string{"stripe-access-token"}, line: 1},
		{note: "GitLab token", file: "gitlab-ci.yml", rules: []string{"gitlab-pat"}, line: 2},
		{note: "npm token", file: "publish.cfg", rules: []string{"npm-access-token"}, line: 2},
		{note: "Google API key", file: "maps.js", rules: []string{"gcp-api-key"}, line: 1},
		{note: "RSA private key", file: "server-key.txt", rules: []string{"private-key", "mcpc-private-key-block"}, line: 2},
		{note: "truncated OpenSSH key", file: "ssh-truncated.md", rules: []string{"mcpc-private-key-block"}, line: 2},
		{note: "Vault tokens, current and legacy", file: "vault-login.sh", rules: []string{"vault-service-token"}, line: 3, count: 2},
		{note: "no secret", file: "clean.go"},
	}
	d := detector(t)
	for _, tc := range tests {
		t.Run(tc.note, func(t *testing.T) {
			content := loadForm(t, tc.file)
			got := d.Scan(content)
			ids := ruleIDs(got)
			for _, want := range tc.rules {
				if !slices.Contains(ids, want) {
					t.Errorf("rules %v, want %s among them", ids, want)
				}
			}
			if len(tc.rules) == 0 && len(got) > 0 {
				t.Errorf("findings %+v in a file without secrets", got)
			}
			if tc.count > 0 && len(got) != tc.count {
				t.Errorf("%d findings, want %d: %+v", len(got), tc.count, got)
			}
			if tc.line > 0 && len(got) > 0 && got[0].StartLine != tc.line {
				t.Errorf("first finding on line %d, want %d: %+v", got[0].StartLine, tc.line, got)
			}
			for _, f := range got {
				if f.Description == "" || f.EndLine < f.StartLine {
					t.Errorf("incomplete finding %+v", f)
				}
			}
		})
	}
}

// TestRedactForms: a redacted form holds no secret the detector can find,
// marks each one it replaced, and keeps the lines around it.
func TestRedactForms(t *testing.T) {
	d := detector(t)
	entries, err := os.ReadDir(filepath.Join("testdata", "forms"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			content := loadForm(t, e.Name())
			found := d.Scan(content)
			red := d.Redact(content)
			if len(found) == 0 {
				if !bytes.Equal(red, content) {
					t.Fatalf("content without secrets changed:\n%s", red)
				}
				return
			}
			if again := d.Scan(red); len(again) > 0 {
				t.Errorf("redacted content still has %v:\n%s", ruleIDs(again), red)
			}
			if !bytes.Contains(red, []byte("[REDACTED:")) {
				t.Errorf("no redaction mark:\n%s", red)
			}
			if bytes.Count(red, []byte{'\n'}) != bytes.Count(content, []byte{'\n'}) {
				t.Errorf("redaction changed the line count:\n%s", red)
			}
			first := strings.SplitN(string(content), "\n", 2)[0]
			if found[0].StartLine > 1 && !strings.HasPrefix(string(red), first) {
				t.Errorf("the line before the secret was not kept:\n%s", red)
			}
		})
	}
}

// TestScanLineNumbers: findings count lines across the pieces a large
// content is cut into.
func TestScanLineNumbers(t *testing.T) {
	d := detector(t)
	filler := bytes.Repeat([]byte("const filler = 1;\n"), (chunkBytes/18)+10)
	secret := loadForm(t, "billing.ts")
	content := append(append([]byte{}, filler...), secret...)
	got := d.Scan(content)
	want := bytes.Count(filler, []byte{'\n'}) + 1
	if len(got) != 1 || got[0].StartLine != want || got[0].RuleID != "stripe-access-token" {
		t.Fatalf("findings %+v, want one stripe-access-token on line %d", got, want)
	}
	if red := d.Redact(content); !bytes.HasPrefix(red, filler) || len(d.Scan(red)) > 0 {
		t.Fatal("redaction across pieces lost the filler or kept the secret")
	}
}

// TestKeyAcrossPieces: a private key cut by a piece boundary is redacted
// whole, head and tail.
func TestKeyAcrossPieces(t *testing.T) {
	d := detector(t)
	key := loadForm(t, "server-key.txt")
	for shift := 0; shift < 600; shift += 37 {
		filler := bytes.Repeat([]byte("x = 1\n"), (chunkBytes-300+shift)/6)
		content := append(append([]byte{}, filler...), key...)
		red := d.Redact(content)
		for _, line := range strings.Split(string(key), "\n")[2:] { // the key's body and END
			if len(line) > 8 && bytes.Contains(red, []byte(line)) {
				t.Fatalf("shift %d: a line of the key survived redaction: %s", shift, line)
			}
		}
		if len(d.Scan(content)) == 0 {
			t.Fatalf("shift %d: no finding", shift)
		}
	}
}

// TestScanContextIncomplete: a scan out of time reports what it did not
// scan, and redaction withholds it line by line.
func TestScanContextIncomplete(t *testing.T) {
	d := detector(t)
	content := bytes.Repeat([]byte("const filler = 1;\n"), 3*chunkBytes/18)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := d.ScanContext(ctx, content)
	lines := bytes.Count(content, []byte{'\n'})
	if len(got) != 1 || got[0].RuleID != IncompleteRule || got[0].StartLine != 1 || got[0].EndLine != lines+1 {
		t.Fatalf("findings %+v, want one %s over all %d lines", got, IncompleteRule, lines)
	}
	red := d.RedactContext(ctx, content)
	if bytes.Count(red, []byte{'\n'}) != lines || bytes.Contains(red, []byte("filler")) {
		t.Fatalf("unscanned content was returned, or lines were lost:\n%.200s", red)
	}
}

// keywordStuffed is content built to make every rule run on every piece:
// each line holds every rule's keyword. It is the most a scan can cost.
func keywordStuffed(d *Detector, size int) []byte {
	kws := make([]string, 0, len(d.gl.Config.Keywords))
	for k := range d.gl.Config.Keywords {
		kws = append(kws, k)
	}
	slices.Sort(kws)
	line := strings.Join(kws, " = x ") + "\n"
	return bytes.Repeat([]byte(line), size/len(line)+1)[:size]
}

// TestScanContextStopsOnStuffedContent: a deadline cuts a scan of content
// that makes every rule run (about 35 s per MiB unbounded) and the rest is
// reported, not trusted.
func TestScanContextStopsOnStuffedContent(t *testing.T) {
	d := detector(t)
	content := keywordStuffed(d, 1<<20)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	got := d.ScanContext(ctx, content)
	if len(got) == 0 || got[len(got)-1].RuleID != IncompleteRule {
		t.Fatalf("findings %v, want the scan cut short with %s", ruleIDs(got), IncompleteRule)
	}
}

// TestScanTooLarge: content past the cap is reported, and redacted whole,
// rather than trusted unscanned.
func TestScanTooLarge(t *testing.T) {
	d := detector(t)
	content := bytes.Repeat([]byte("x = 1\n"), MaxScanBytes/6+100)
	got := d.Scan(content)
	if len(got) != 1 || got[0].RuleID != TooLargeRule {
		t.Fatalf("findings %+v, want one %s", got, TooLargeRule)
	}
	red := d.Redact(content)
	if !bytes.HasSuffix(red, []byte("[REDACTED:"+TooLargeRule+"]")) || len(red) > MaxScanBytes+64 {
		t.Fatalf("the unscanned tail was not redacted (%d bytes)", len(red))
	}
}

// TestConcurrentScan: one detector serves concurrent scans (run with -race).
func TestConcurrentScan(t *testing.T) {
	d := detector(t)
	content := loadForm(t, "aws-cli-output.json")
	want := len(d.Scan(content))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := len(d.Scan(content)); got != want {
				t.Errorf("concurrent scan found %d, want %d", got, want)
			}
		})
	}
	wg.Wait()
}
