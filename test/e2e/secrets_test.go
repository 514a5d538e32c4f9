package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEscalateKeepsSecretsOut: an escalate worded to pull secrets in adds
// none of them, whether their name gives them away or only their content
// (a private key in a file with an ordinary name), and names none of them
// in excluded.
func TestEscalateKeepsSecretsOut(t *testing.T) {
	ws := newWorkspace(t)
	secrets := map[string]string{
		"config/prod.env":            "ORDERS_GRID_API_KEY=orders-grid-secret\n",
		".vault-token":               "hvs.orders-grid-token\n",
		"gcp-service-account.json":   `{"type": "service_account", "client_email": "orders-grid@example.iam", "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----\n"}`,
		"docs/orders-grid-deploy.md": "# Orders grid deploy\nThe orders grid columnDefs deploy key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA\n-----END OPENSSH PRIVATE KEY-----\n",
		"docs/aws-orders-grid.ini":   "[orders-grid]\naws_access_key_id = AKIAORDERSGRID\naws_secret_access_key = orders/grid/secret\n",
	}
	for name, content := range secrets {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(ws, name)), 0o755))
		must(t, os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644))
	}
	a := startServer(t, ws)
	a.initialize("Fix the stock warning on the dashboard", "dashboard")
	esc := a.turn("escalate", map[string]any{"need": "orders grid deploy: api key, private key, service account, vault token, aws secret access key, prod env"})
	mustAllow(t, esc)
	pack := packFiles(esc)
	excluded, _ := esc.ContextPack["excluded"].([]any)
	for name := range secrets {
		if slices.Contains(pack, name) {
			t.Errorf("escalate added %s to the pack", name)
		}
		for _, e := range excluded {
			if strings.Contains(strings.ToLower(toJSON(e)), strings.ToLower(filepath.Base(name))) {
				t.Errorf("excluded names the secret %s: %v", name, e)
			}
		}
		mustDeny(t, a.turn("read_file_lines", map[string]any{"targetFile": name}), "PACK_SCOPE_VIOLATION")
	}
}

func toJSON(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}
