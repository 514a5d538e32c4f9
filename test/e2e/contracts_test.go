package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
)

// contractsDTS declares the example's design-system components the way
// Stencil's compiler writes components.d.ts.
const contractsDTS = `export namespace Components {
    interface SdfAlert {
        "severity"?: 'info' | 'warning' | 'error';
        "heading": string;
        "dismissible"?: boolean;
    }
    interface SdfButton {
        "variant"?: "primary" | "secondary";
        "disabled"?: boolean;
        "label": string;
    }
}
declare global {
    interface HTMLSdfAlertElement extends Components.SdfAlert, HTMLStencilElement {
    }
    interface HTMLSdfButtonElement extends Components.SdfButton, HTMLStencilElement {
    }
    interface HTMLElementTagNameMap {
        "sdf-alert": HTMLSdfAlertElement;
        "sdf-button": HTMLSdfButtonElement;
    }
}
`

// contractWorkspace is the example with a components.d.ts contract and an
// adp-alert MigrationRule seed of the given status; serve's embedded graph
// syncs both at initialize_work.
func contractWorkspace(t *testing.T, ruleStatus string) string {
	t.Helper()
	ws := newWorkspace(t)
	seed := `{"id":"mig-adp-alert","type":"MigrationRule","version":1,"updated_at":"2026-11-01T10:00:00Z","updated_by":"design-system-team",` +
		`"fromTag":"adp-alert","toTag":"sdf-alert","status":"` + ruleStatus + `","propMappings":{"type":"severity","message":"heading"}}` + "\n"
	for rel, content := range map[string]string{
		"src/design-system/components.d.ts":          contractsDTS,
		".ai/graph/seed/migrations/adp-to-sdf.jsonl": seed,
	} {
		p := filepath.Join(ws, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

// migrationNode is the change node of the adp-alert migration, citing its
// MigrationRule as plan policy requires (and, for a candidate rule, on the
// low-evidence path).
func migrationNode(ruleStatus string) map[string]any {
	n := changeNode("change-1", "modify", demo.Target)
	n["policyRefs"] = []string{"mig-adp-alert"}
	if ruleStatus != "approved" {
		n["lowEvidenceGuard"], n["uncertaintyNote"], n["requiresHumanReview"] = true, "the adp-alert mapping is a candidate", true
	}
	return n
}

// TestComponentContractAtWriteTime: a patch that leaves an sdf-* element
// with an attribute or binding its contract lacks is refused with
// EXEC_CONTRACT_VIOLATION and writes nothing; one that uses declared props
// is written; rewrite_template_tag without propMappings takes them from the
// approved MigrationRule seed and its output passes the contract, while a
// candidate rule lends no mappings and the leftover attributes are refused.
func TestComponentContractAtWriteTime(t *testing.T) {
	const section = `<section class="latest">`
	for _, tc := range []struct {
		note       string
		ruleStatus string
		edit       map[string]any
		deny       []string // the denials' messages; none: allowed
		want       func(before string) string
	}{
		{note: "invented binding refused", ruleStatus: "approved",
			edit: map[string]any{"op": "replace_text", "find": section,
				"replace": "<sdf-button [invented]=\"x\" label=\"Go\"></sdf-button>\n" + section},
			deny: []string{"<sdf-button> at line 5 has [invented], which its components.d.ts contract does not declare (declared props: disabled, label, variant)"}},
		{note: "declared props allowed", ruleStatus: "approved",
			edit: map[string]any{"op": "replace_text", "find": section,
				"replace": "<sdf-button variant=\"primary\" [disabled]=\"busy\" label=\"Go\" class=\"cta\" (click)=\"go()\" *ngIf=\"ready\"></sdf-button>\n" + section},
			want: func(b string) string {
				return strings.Replace(b, section, "<sdf-button variant=\"primary\" [disabled]=\"busy\" label=\"Go\" class=\"cta\" (click)=\"go()\" *ngIf=\"ready\"></sdf-button>\n"+section, 1)
			}},
		{note: "rewrite_template_tag with the MigrationRule's mappings", ruleStatus: "approved",
			edit: codemodEdit("rewrite_template_tag", map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert"}),
			want: func(b string) string {
				return strings.Replace(b, `<adp-alert type="warning" [message]="stockMessage" dismissible></adp-alert>`,
					`<sdf-alert severity="warning" [heading]="stockMessage" dismissible></sdf-alert>`, 1)
			}},
		{note: "explicit propMappings win over the MigrationRule's", ruleStatus: "approved",
			edit: codemodEdit("rewrite_template_tag", map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert",
				"propMappings": map[string]any{"type": "severity", "message": "children"}}),
			want: func(b string) string {
				return strings.Replace(b, `<adp-alert type="warning" [message]="stockMessage" dismissible></adp-alert>`,
					`<sdf-alert severity="warning" dismissible>{{ stockMessage }}</sdf-alert>`, 1)
			}},
		{note: "a candidate rule lends no mappings", ruleStatus: "candidate",
			edit: codemodEdit("rewrite_template_tag", map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert"}),
			deny: []string{
				"<sdf-alert> at line 3 has type, which its components.d.ts contract does not declare (declared props: dismissible, heading, severity)",
				"<sdf-alert> at line 3 has [message], which its components.d.ts contract does not declare (declared props: dismissible, heading, severity)",
			}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			ws := contractWorkspace(t, tc.ruleStatus)
			before := readWorkspaceFile(t, ws, demo.Target)
			a := workWithChanges(t, ws, migrationNode(tc.ruleStatus))
			mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
			r := a.turn("apply_code_patch", map[string]any{"planNodeId": "change-1", "targetFile": demo.Target, "edits": []any{tc.edit}})
			if len(tc.deny) > 0 {
				mustDeny(t, r, "EXEC_CONTRACT_VIOLATION")
				var got []string
				for _, d := range r.Denials {
					if d.Code == "EXEC_CONTRACT_VIOLATION" {
						got = append(got, d.Message)
						if d.Rule != `mcpc.rules.exec["component-contract-write"]` || d.Path != "args.edits" {
							t.Errorf("denial %+v", d)
						}
					}
				}
				if !sameSet(got, tc.deny) {
					t.Fatalf("denials\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.deny, "\n"))
				}
				if after := readWorkspaceFile(t, ws, demo.Target); after != before {
					t.Fatalf("a refused patch changed %s:\n%s", demo.Target, after)
				}
				return
			}
			mustAllow(t, r)
			if got, want := readWorkspaceFile(t, ws, demo.Target), tc.want(before); got != want {
				t.Fatalf("%s is\n%s\nwant\n%s", demo.Target, got, want)
			}
		})
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, s := range a {
		seen[s]++
	}
	for _, s := range b {
		if seen[s]--; seen[s] < 0 {
			return false
		}
	}
	return true
}

// TestComponentContractRecipe: replace_lexeme_in_file renaming adp-alert to
// sdf-alert leaves the old attributes on the contracted element; the write
// is refused and the file kept.
func TestComponentContractRecipe(t *testing.T) {
	ws := contractWorkspace(t, "approved")
	before := readWorkspaceFile(t, ws, demo.Target)
	a := workWithChanges(t, ws, migrationNode("approved"))
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	r := a.turn("run_automation_recipe", map[string]any{"recipeId": "replace_lexeme_in_file", "planNodeId": "change-1",
		"params": map[string]any{"lexeme": "adp-alert", "replacement": "sdf-alert"}})
	mustDeny(t, r, "EXEC_CONTRACT_VIOLATION")
	var got []string
	for _, d := range r.Denials {
		got = append(got, d.Message)
	}
	want := []string{
		"<sdf-alert> at line 3 has type, which its components.d.ts contract does not declare (declared props: dismissible, heading, severity)",
		"<sdf-alert> at line 3 has [message], which its components.d.ts contract does not declare (declared props: dismissible, heading, severity)",
	}
	if !sameSet(got, want) {
		t.Fatalf("denials %q", got)
	}
	if readWorkspaceFile(t, ws, demo.Target) != before {
		t.Fatal("a refused recipe changed the file")
	}
}
