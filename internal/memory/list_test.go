package memory

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpc/mcpc/internal/pathscope"
)

func TestList(t *testing.T) {
	const records = `[
		{"id": "a", "state": "pending", "enforcementType": "few_shot", "domainAnchorIds": ["anchor:src", 7], "fewShot": {"x": 1}},
		{"id": "b", "state": "approved", "trigger": 3, "rejectionCodes": ["C1", "C2"]}
	]`
	for _, tc := range []struct {
		note, file, state string
		ids               []string
	}{
		{note: "a list", file: records, ids: []string{"a", "b"}},
		{note: "wrapped", file: `{"records": ` + records + `}`, ids: []string{"a", "b"}},
		{note: "by state", file: records, state: "approved", ids: []string{"b"}},
		{note: "no such state", file: records, state: "expired", ids: []string{}},
		{note: "absent file", ids: []string{}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			root := t.TempDir()
			if tc.file != "" {
				if err := os.MkdirAll(filepath.Join(root, ".ai", "memory"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, RecordsFile), []byte(tc.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := pathscope.New(root)
			if err != nil {
				t.Fatal(err)
			}
			list, err := List(res, tc.state)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := WriteListJSON(&buf, res, tc.state); err != nil {
				t.Fatal(err)
			}
			var asJSON []map[string]any
			if err := json.Unmarshal(buf.Bytes(), &asJSON); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, buf.String())
			}
			if len(list) != len(tc.ids) || len(asJSON) != len(tc.ids) {
				t.Fatalf("listed %v and %s, want %v", list, buf.String(), tc.ids)
			}
			for i, id := range tc.ids {
				if list[i].ID != id || asJSON[i]["id"] != id {
					t.Errorf("row %d: %v / %v, want %s", i, list[i], asJSON[i], id)
				}
			}
			if tc.note == "a list" {
				if a := list[0]; a.State != "pending" || a.EnforcementType != "few_shot" || len(a.DomainAnchorIDs) != 1 || a.DomainAnchorIDs[0] != "anchor:src" {
					t.Errorf("a = %+v", a)
				}
				if b := list[1]; b.Trigger != "" || len(b.RejectionCodes) != 2 {
					t.Errorf("b = %+v", b)
				}
				if fs, _ := asJSON[0]["fewShot"].(map[string]any); fs["x"] != float64(1) {
					t.Errorf("the JSON listing lost fields: %v", asJSON[0])
				}
			}
		})
	}
}

func TestListRefusesMalformedRecords(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".ai", "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, RecordsFile), []byte(`{"nope": `), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ := pathscope.New(root)
	if _, err := List(res, ""); err == nil {
		t.Error("List of a malformed file succeeded")
	}
	if err := WriteListJSON(&bytes.Buffer{}, res, ""); err == nil {
		t.Error("WriteListJSON of a malformed file succeeded")
	}
}
