package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestBundleSet: bundles load together when their roots are disjoint
// (the embedded policies and the ADP->SDF domain bundle of bundles/), and
// are refused with bundle_roots when two claim the same root or a bundle
// holds data outside its roots.
func TestBundleSet(t *testing.T) {
	ctx := context.Background()
	domain := filepath.Join("..", "..", "bundles", "adp-to-sdf")
	manifestDir := func(manifest, data string) string {
		d := t.TempDir()
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		must(os.WriteFile(filepath.Join(d, ".manifest"), []byte(manifest), 0o644))
		must(os.MkdirAll(filepath.Join(d, "mcpcdomain", "adp_sdf"), 0o755))
		must(os.WriteFile(filepath.Join(d, "mcpcdomain", "adp_sdf", "data.json"), []byte(data), 0o644))
		return d
	}
	for _, tc := range []struct {
		note  string
		paths []string
		code  string // "" loads
	}{
		{"embedded and domain", []string{"", domain}, ""},
		{"domain alone decides nothing", []string{domain}, "bundle_empty"},
		{"two bundles on one root", []string{"", domain, manifestDir(`{"roots": ["mcpcdomain/adp_sdf"]}`, `{}`)}, "bundle_roots"},
		{"a root inside another", []string{"", domain, manifestDir(`{"roots": ["mcpcdomain"]}`, `{}`)}, "bundle_roots"},
		{"a bundle claiming everything", []string{"", manifestDir(`{}`, `{}`)}, "bundle_roots"},
		{"data outside the roots", []string{"", manifestDir(`{"roots": ["mcpcdomain/other"]}`, `{"x": 1}`)}, "bundle_roots"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			e, err := New(ctx, Options{BundlePaths: tc.paths})
			if tc.code != "" {
				ee, ok := err.(*Error)
				if !ok || ee.Code != tc.code {
					t.Fatalf("err %v, want code %s", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(e.Data("mcpcdomain", "adp_sdf", "migrationRules"))
			var rules []struct{ ID string }
			if err := json.Unmarshal(raw, &rules); err != nil || !slices.ContainsFunc(rules, func(r struct{ ID string }) bool { return r.ID == "adp-sdf:adp-alert" }) {
				t.Fatalf("the domain bundle's rules are not in the merged data: %s", raw)
			}
			if e.Data("data", "mcpc", "states") == nil {
				t.Fatal("the default tables are not in the merged data")
			}
		})
	}
}

// TestDefaultRoots: the embedded policies claim the roots
// bundles/default/.manifest declares, so a bundle built from it and the
// embedded policies keep domain bundles apart the same way.
func TestDefaultRoots(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "bundles", "default", ".manifest"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Roots []string }
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Roots, DefaultRoots) {
		t.Fatalf("bundles/default/.manifest roots %v, DefaultRoots %v", m.Roots, DefaultRoots)
	}
}
