package memory

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/pathscope"
)

func TestIngest(t *testing.T) {
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		note      string
		files     map[string]string
		records   string
		ingested  int
		problems  int
		wantIDs   []string
		leftInDir []string
	}{
		{
			note:     "a valid plan_rule enters approved and replaces the record with its id",
			files:    map[string]string{"rule.json": `{"id": "m1", "enforcementType": "plan_rule", "planRule": {"requiredSteps": [{"kind": "validate"}], "denyCode": "PLAN_VERIFICATION_WEAK"}}`},
			records:  `[{"id": "m1", "state": "pending", "enforcementType": "informational"}, {"id": "m0", "state": "approved", "enforcementType": "informational"}]`,
			ingested: 1, wantIDs: []string{"m0", "m1"}, leftInDir: []string{"rule.json.processed"},
		},
		{
			note:     "a file failing its schema is reported and left in place",
			files:    map[string]string{"bad.json": `{"id": "m2", "enforcementType": "plan_rule"}`, "junk.json": `{not json`},
			problems: 2, leftInDir: []string{"bad.json", "junk.json"},
		},
		{
			note:     "a strategy_signal and a note that is not JSON",
			files:    map[string]string{"sig.json": `{"id": "s1", "enforcementType": "strategy_signal", "strategySignal": {"featureFlag": "migration_adp_present", "value": true}}`, "README.md": "# notes"},
			ingested: 1, wantIDs: []string{"s1"}, leftInDir: []string{"README.md", "sig.json.processed"},
		},
	} {
		t.Run(tc.note, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, OverridesDir)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, body := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.records != "" {
				if err := os.WriteFile(filepath.Join(root, RecordsFile), []byte(tc.records), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := pathscope.New(root)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Ingest(res, now)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Ingested) != tc.ingested || len(got.Problems) != tc.problems {
				t.Fatalf("ingested %v, problems %+v", got.Ingested, got.Problems)
			}
			records, err := Load(res)
			if err != nil {
				t.Fatal(err)
			}
			ids := []string{}
			for _, r := range records {
				ids = append(ids, r["id"].(string))
				if r["id"] == "m1" && (r["state"] != "approved" || r["trigger"] != "human_override" || r["createdAt"] != "2026-11-25T00:00:00Z") {
					t.Errorf("override record: %v", r)
				}
			}
			if raw, _ := json.Marshal(ids); string(raw) != mustJSON(tc.wantIDs) {
				t.Errorf("records %s, want %v", raw, tc.wantIDs)
			}
			entries, _ := os.ReadDir(dir)
			var left []string
			for _, e := range entries {
				left = append(left, e.Name())
			}
			if mustJSON(left) != mustJSON(tc.leftInDir) {
				t.Errorf("left %v, want %v", left, tc.leftInDir)
			}
		})
	}
}

func TestIngestRefusesALinkedOverride(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, OverridesDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "o.json")
	if err := os.WriteFile(outside, []byte(`{"id": "x", "enforcementType": "informational"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.json")); err != nil {
		t.Fatal(err)
	}
	res, _ := pathscope.New(root)
	got, err := Ingest(res, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Ingested) != 0 || len(got.Problems) != 1 {
		t.Fatalf("a link is never read: %+v", got)
	}
}

func mustJSON(v []string) string {
	if v == nil {
		v = []string{}
	}
	raw, _ := json.Marshal(v)
	return string(raw)
}
