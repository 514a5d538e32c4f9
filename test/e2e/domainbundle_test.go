package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// buildRepoBundles builds bundles/default (the policies with their
// manifest) and bundles/adp-to-sdf (data only) with mcpc policy build, as
// make bundle does, signed with signingKey unless it is "".
func buildRepoBundles(t *testing.T, ws, signingKey string) (defaultBundle, domainBundle string) {
	t.Helper()
	repo := filepath.Dir(policiesDir())
	out := t.TempDir()
	defaultBundle, domainBundle = filepath.Join(out, "default.tar.gz"), filepath.Join(out, "adp-to-sdf.tar.gz")
	for _, args := range [][]string{
		{"policy", "build", "--dir", policiesDir(), "--manifest", filepath.Join(repo, "bundles", "default", ".manifest"), "--output", defaultBundle},
		{"policy", "build", "--dir", filepath.Join(repo, "bundles", "adp-to-sdf"), "--output", domainBundle},
	} {
		if signingKey != "" {
			args = append(args, "--signing-key", signingKey)
		}
		if text, err := runCLI(ws, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, text)
		}
	}
	return defaultBundle, domainBundle
}

// packPolicyIDs reads the context pack a turn wrote and returns the ids of
// its policies of one kind.
func packPolicyIDs(t *testing.T, ws, ref, kind string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(ws, ref))
	must(t, err)
	var pack struct {
		Policies []struct {
			Kind string `json:"kind"`
			ID   string `json:"id"`
		} `json:"policies"`
	}
	must(t, json.Unmarshal(raw, &pack))
	var ids []string
	for _, p := range pack.Policies {
		if p.Kind == kind {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// TestDomainBundle: serve --bundle given twice decides with the default
// bundle and the ADP->SDF domain bundle together: the pack lists the
// domain bundle's MigrationRules, which the default bundle alone does not
// have. Two bundles claiming the same root are refused with OPA's roots
// error, and with a key configured each bundle must verify.
func TestDomainBundle(t *testing.T) {
	ws := newWorkspace(t)
	def, domain := buildRepoBundles(t, ws, "")
	prompt := "Migrate the order alert from adp-alert to sdf-alert"

	policyIDs := func(a *agent) []string {
		r := a.initialize(prompt, "adp-alert")
		ref, _ := r.ContextPack["ref"].(string)
		if ref == "" {
			t.Fatalf("no pack ref in %v", r.ContextPack)
		}
		return packPolicyIDs(t, ws, ref, "MigrationRule")
	}

	t.Run("default and domain bundles together", func(t *testing.T) {
		a := startServer(t, ws, "--no-warm", "--bundle", def, "--bundle", domain)
		ids := policyIDs(a)
		for _, want := range []string{"adp-sdf:adp-alert", "adp-sdf:adp-button", "adp-sdf:adp-modal", "adp-sdf:adp-grid"} {
			if !slices.Contains(ids, want) {
				t.Errorf("the pack's MigrationRules %v lack %s from the domain bundle", ids, want)
			}
		}
	})

	t.Run("default bundle alone", func(t *testing.T) {
		a := startServer(t, ws, "--no-warm", "--bundle", def)
		if ids := policyIDs(a); slices.ContainsFunc(ids, func(id string) bool { return strings.HasPrefix(id, "adp-sdf:") }) {
			t.Fatalf("without the domain bundle the pack must not list its rules: %v", ids)
		}
	})

	// The domain bundle's strategyOverrides are lib/strategy's last layer:
	// restyling a page that uses ADP components is a migration under the
	// team's bundle, a plain change without it.
	t.Run("strategy override from the domain bundle", func(t *testing.T) {
		restyle := "Modernize the alert banner on the dashboard"
		a := startServer(t, ws, "--no-warm", "--bundle", def, "--bundle", domain)
		r := a.initialize(restyle, "dashboard")
		if got := r.Strategy["strategyId"]; got != "migration_adp_to_sdf" {
			t.Fatalf("with the domain bundle: strategy %v, reasons %v", got, r.Strategy["reasons"])
		}
		by, _ := r.Strategy["decidedBy"].(map[string]any)
		if by["layer"] != "bundleOverride" || by["source"] != "bundle:adp_sdf:strategyOverrides[0]" {
			t.Fatalf("the response must say the bundle's override chose it: %v", r.Strategy["decidedBy"])
		}
		if env := envelopeOf(r); env["knowledgeStrategyId"] != "migration_adp_to_sdf" {
			t.Fatalf("the plan envelope carries the strategy in force: %v", env["knowledgeStrategyId"])
		}
		b := startServer(t, ws, "--no-warm", "--bundle", def)
		r = b.initialize(restyle, "dashboard")
		by, _ = r.Strategy["decidedBy"].(map[string]any)
		if r.Strategy["strategyId"] == "migration_adp_to_sdf" || by["layer"] != "decisionTable" {
			t.Fatalf("without the domain bundle the decision table chooses: %v %v", r.Strategy["strategyId"], by)
		}
	})

	t.Run("overlapping roots are refused", func(t *testing.T) {
		// The same data under another file name: both claim mcpcdomain/adp_sdf.
		twin := filepath.Join(t.TempDir(), "twin.tar.gz")
		b, err := os.ReadFile(domain)
		must(t, err)
		must(t, os.WriteFile(twin, b, 0o644))
		a, log := startLogged(t, ws, "--bundle", def, "--bundle", domain, "--bundle", twin)
		if got := policyInForce(a); got != "POLICY_ERROR" {
			t.Fatalf("overlapping bundles must fail closed, got %s", got)
		}
		waitLog(t, log, "overlap")
	})

	t.Run("each bundle must verify", func(t *testing.T) {
		priv, pub := rsaKey(t, t.TempDir(), "signer")
		signedDef, _ := buildRepoBundles(t, ws, priv)
		// The domain bundle is unsigned: with a key configured it is
		// refused, and so is the set.
		a, log := startLogged(t, ws, "--bundle-key", pub, "--bundle", signedDef, "--bundle", domain)
		if got := policyInForce(a); got != "POLICY_ERROR" {
			t.Fatalf("an unsigned domain bundle must be refused, got %s", got)
		}
		waitLog(t, log, "signature")
		signedDef, signedDomain := buildRepoBundles(t, ws, priv)
		b := startServer(t, ws, "--no-warm", "--bundle-key", pub, "--bundle", signedDef, "--bundle", signedDomain)
		if ids := policyIDs(b); !slices.Contains(ids, "adp-sdf:adp-alert") {
			t.Fatalf("signed bundles together: the pack's MigrationRules %v lack the domain bundle's", ids)
		}
	})
}

// waitLog waits briefly for the server's log to mention what.
func waitLog(t *testing.T, log *syncBuffer, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if strings.Contains(log.String(), what) {
			return
		}
	}
	t.Fatalf("the log does not mention %q:\n%s", what, log)
}
