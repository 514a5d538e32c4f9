package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/store"
)

// TestLexemeRecipe: replace_lexeme_in_file refuses bad params and a blind
// write, then replaces the lexeme as a whole word only, records the patch
// like apply_code_patch does (ledger, node status) and keeps a
// recipe_usage event, as run_targeted_validation does.
func TestLexemeRecipe(t *testing.T) {
	ws := newWorkspace(t)
	target := filepath.Join(ws, demo.Target)
	content, err := os.ReadFile(target)
	must(t, err)
	// A longer name holding the lexeme must survive the replacement.
	must(t, os.WriteFile(target, append(content, []byte("<p>adp-alerts here, not-adp-alert there</p>\n")...), 0o644))
	a := acceptedWork(t, ws)
	recipe := func(params map[string]any) map[string]any {
		return map[string]any{"recipeId": "replace_lexeme_in_file", "planNodeId": "change-alert", "params": params}
	}
	good := map[string]any{"lexeme": "adp-alert", "replacement": "sdf-alert"}
	mustDeny(t, a.turn("run_automation_recipe", recipe(good)), "STALE_CONTEXT")
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	mustDeny(t, a.turn("run_automation_recipe", recipe(map[string]any{"lexeme": "adp-alert", "replacement": "sdf-alert", "regex": ".*"})), "RECIPE_PARAMS_INVALID")
	mustDeny(t, a.turn("run_automation_recipe", recipe(map[string]any{"lexeme": "alert", "replacement": "notice"})), "RECIPE_PARAMS_INVALID")
	mustDeny(t, a.turn("run_automation_recipe", recipe(map[string]any{"lexeme": "adp-alert", "replacement": "sdf-alert",
		"targetFile": "src/app/app.routes.ts"})), "RECIPE_PARAMS_INVALID")
	r := a.turn("run_automation_recipe", recipe(good))
	mustAllow(t, r)
	if r.Result["replaced"] != float64(2) {
		t.Fatalf("result %v", r.Result)
	}
	after, err := os.ReadFile(target)
	must(t, err)
	if strings.Contains(string(after), "<adp-alert ") || !strings.Contains(string(after), "</sdf-alert>") || !strings.Contains(string(after), "adp-alerts here, not-adp-alert there") {
		t.Fatalf("the file after the recipe:\n%s", after)
	}
	// Patched once: the node is not patched again before its validation.
	mustDeny(t, a.turn("run_automation_recipe", recipe(map[string]any{"lexeme": "sdf-alert", "replacement": "adp-alert"})), "EXEC_PREREQUISITE_UNMET")
	if v := validateAlert(a); v.Result["status"] != "passed" {
		t.Fatalf("validation: %v", v.Result)
	}
	lines := ledgerLines(t, ws)
	var rec map[string]any
	must(t, json.Unmarshal(lines[len(lines)-1], &rec))
	if len(lines) != 1 || rec["mutation_class"] != "AST_REFACTOR" {
		t.Errorf("ledger: %d records, last %v", len(lines), rec)
	}
	st, err := store.Open(filepath.Join(ws, app.StorePath))
	must(t, err)
	defer st.Close()
	var events []json.RawMessage
	must(t, st.View(context.Background(), func(tx *store.Tx) (err error) {
		events, err = tx.Events(context.Background(), a.work, "recipe_usage")
		return err
	}))
	if len(events) != 2 || !strings.Contains(string(events[0]), `"recipeId":"replace_lexeme_in_file"`) ||
		!strings.Contains(string(events[0]), `"replaced":2`) || !strings.Contains(string(events[1]), `"recipeId":"run_targeted_validation"`) {
		t.Fatalf("recipe_usage events: %s", events)
	}
}
