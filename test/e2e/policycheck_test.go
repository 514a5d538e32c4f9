package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyPolicies copies the source tree's policies/ (Rego and data) into a
// temporary directory to break on purpose.
func copyPolicies(t *testing.T) string {
	t.Helper()
	src, dst := policiesDir(), t.TempDir()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !strings.HasSuffix(p, ".rego") && !strings.HasSuffix(p, ".json") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	must(t, err)
	return dst
}

// extraRule is a documented rule package whose code is given, and whose
// denial may carry a literal code besides.
func extraRule(name, code, literal string) string {
	body := `result.fail(rego.metadata.chain(), {"message": "x", "path": ""}) if input.never`
	if literal != "" {
		body = `object.union(result.fail(rego.metadata.chain(), {"message": "x", "path": ""}), {"code": "` + literal + `"}) if input.never`
	}
	return `# METADATA
# title: Extra rule
# description: a rule the test adds
# custom:
#   code: ` + code + `
#   remediation: none
#   severity: error
package mcpc.rules.request["` + name + `"]

import data.mcpc.result

report contains ` + body + "\n"
}

// TestPolicyCheckCodesAndData: policy check warns about a code two rule
// packages declare without listing it as shared, fails on a denial code no
// METADATA documents and on a data table that fails its schema, and passes
// the source tree clean.
func TestPolicyCheckCodesAndData(t *testing.T) {
	ws := newWorkspace(t)
	type report struct {
		OK       bool `json:"ok"`
		Errors   []struct{ Code, Location, Message string }
		Warnings []struct{ Code, Location, Message string }
	}
	check := func(dir string) (report, error) {
		out, err := runCLI(ws, "policy", "check", "--dir", dir)
		var r report
		if jerr := json.Unmarshal([]byte(out[:strings.LastIndex(out, "}")+1]), &r); jerr != nil {
			t.Fatalf("policy check output is not JSON: %v\n%s", jerr, out)
		}
		return r, err
	}
	write := func(dir, rel, text string) {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644))
	}
	for _, tc := range []struct {
		note     string
		change   func(dir string)
		ok       bool
		errCode  string // an error with this code and a location containing errAt
		errAt    string
		warnCode string
	}{
		{note: "source tree is clean", change: func(string) {}, ok: true},
		{
			note: "a code two packages declare, not shared",
			change: func(dir string) {
				write(dir, "rego/mcpc/rules/request/extra-a/extra_a.rego", extraRule("extra-a", "EXTRA_DUPLICATE", ""))
				write(dir, "rego/mcpc/rules/request/extra-b/extra_b.rego", extraRule("extra-b", "EXTRA_DUPLICATE", ""))
			},
			ok: true, warnCode: "duplicate_code",
		},
		{
			note: "a denial code no METADATA documents",
			change: func(dir string) {
				write(dir, "rego/mcpc/rules/request/extra-c/extra_c.rego", extraRule("extra-c", "EXTRA_C", "NOBODY_DOCUMENTS_THIS"))
			},
			errCode: "undocumented_code", errAt: "extra_c.rego",
		},
		{
			note: "a protected path without its reason",
			change: func(dir string) {
				write(dir, "data/protected.json", `{"mcpc": {"protectedPaths": [{"glob": ".ai/config"}]}}`)
			},
			errCode: "data_schema", errAt: "data/protected.json:mcpc.protectedPaths[0]",
		},
		{
			note: "a codemod parameter of an unknown type",
			change: func(dir string) {
				write(dir, "data/codemods.json", `{"mcpc": {"codemods": {"rename_identifier_in_file": {"description": "d", "extensions": [".ts"], "params": {"from": {"type": "number", "description": "d"}}}}}}`)
			},
			errCode: "data_schema", errAt: "data/codemods.json:mcpc.codemods.rename_identifier_in_file.params.from.type",
		},
	} {
		t.Run(tc.note, func(t *testing.T) {
			dir := copyPolicies(t)
			tc.change(dir)
			r, err := check(dir)
			if tc.ok != (err == nil) || tc.ok != r.OK {
				t.Fatalf("ok %v (err %v), want %v: %+v", r.OK, err, tc.ok, r)
			}
			if tc.errCode != "" {
				found := false
				for _, e := range r.Errors {
					found = found || (e.Code == tc.errCode && strings.Contains(e.Location, tc.errAt))
				}
				if !found {
					t.Fatalf("want error %s at %s, got %+v", tc.errCode, tc.errAt, r.Errors)
				}
			}
			if tc.warnCode == "" && len(r.Warnings) > 0 {
				t.Fatalf("unexpected warnings %+v", r.Warnings)
			}
			if tc.warnCode != "" && (len(r.Warnings) != 1 || r.Warnings[0].Code != tc.warnCode || !strings.Contains(r.Warnings[0].Message, "EXTRA_DUPLICATE")) {
				t.Fatalf("want one %s warning naming EXTRA_DUPLICATE, got %+v", tc.warnCode, r.Warnings)
			}
		})
	}
}
