package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/protocol"
)

// fakeSecret reads a form of internal/secrets/testdata without the marker
// that keeps it from being a working secret on disk (see the README there).
func fakeSecret(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "internal", "secrets", "testdata", "forms", name))
	must(t, err)
	return bytes.ReplaceAll(raw, []byte("@@"), nil)
}

// bait is a first line that ranks a file for a lexeme of its own, so
// retrieval proposes each file and only policy can keep it out (one word
// shared by fifty files would rank none of them).
func bait(i int) (line, lexeme string) {
	lexeme = "probe" + string(rune('a'+i/26)) + string(rune('a'+i%26))
	return "adp-alert dashboard stock warning " + lexeme + "\n", lexeme
}

// secretWorkspace is the example workspace with a secret in each form the
// detector knows, under ordinary names, and a file of each secret name
// class holding nothing but bait. It returns the secret files, the
// lexemes that rank them, and one ordinary file with bait of its own,
// which must reach the pack.
func secretWorkspace(t *testing.T) (ws string, secrets, lexemes []string, control string) {
	t.Helper()
	ws = newWorkspace(t)
	write := func(name string, content []byte) {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(ws, name)), 0o755))
		must(t, os.WriteFile(filepath.Join(ws, name), content, 0o644))
	}
	baited := func(name string, content []byte) {
		line, lexeme := bait(len(lexemes))
		write(name, append([]byte(line), content...))
		lexemes = append(lexemes, lexeme)
	}
	forms, err := os.ReadDir(filepath.Join("..", "..", "internal", "secrets", "testdata", "forms"))
	must(t, err)
	for _, f := range forms {
		if f.Name() == "clean.go" {
			continue
		}
		name := "src/app/dashboard/notes/" + f.Name()
		baited(name, fakeSecret(t, f.Name()))
		secrets = append(secrets, name)
	}
	for _, name := range []string{
		".env.production.local", "src/.env-local", "env.local", ".flaskenv", "config/prod.env",
		".docker/config.json", ".dockercfg", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pypirc", "pip.conf",
		".gem/credentials", ".cargo/credentials.toml", ".composer/auth.json", "auth.json",
		".gradle/gradle.properties", "settings-security.xml", ".m2/settings.xml",
		"infra/prod.tfvars", "infra/prod.tfvars.json", "infra/terraform.tfstate.backup", ".terraformrc", "terraform.rc",
		".netrc", "_netrc", ".pgpass", ".my.cnf", "credentials.json", "service-account-orders.json",
		"kubeconfig", ".kube/config", "vpn/office.ovpn", "htpasswd", "config/secrets.yml", ".s3cfg", ".boto",
		".git-credentials", "keys/release.jks", "keys/release.keystore", "keys/server.p12", "home/.ssh/id_ed25519",
	} {
		baited(name, nil)
		secrets = append(secrets, name)
	}
	control = "src/app/dashboard/notes/deploy-notes.md"
	baited(control, nil)
	// A pack large enough for every file the bait ranks: only policy, not
	// the rank cut, may leave a secret out.
	var cfg map[string]any
	raw, err := os.ReadFile(filepath.Join(ws, ".ai", "config", "repo.json"))
	must(t, err)
	must(t, json.Unmarshal(raw, &cfg))
	cfg["pack"] = map[string]any{"maxFiles": 200, "escalateMaxFiles": 100}
	raw, err = json.Marshal(cfg)
	must(t, err)
	write(".ai/config/repo.json", raw)
	roomyBudget(t, ws)
	return ws, secrets, lexemes, control
}

// leaks fails the test when a response names a secret file or carries a
// secret's content.
func leaks(t *testing.T, what string, r *protocol.TurnResponse, secrets []string) {
	t.Helper()
	raw, err := json.Marshal(r)
	must(t, err)
	for _, name := range secrets {
		if bytes.Contains(raw, []byte(name)) {
			t.Errorf("%s names the secret %s", what, name)
		}
	}
	for _, marker := range []string{"ghp_", "xoxb-", "sk_live_", "glpat-", "npm_", "AIza", "AccountKey=", "LS0tLS1CRUdJTi", "PRIVATE KEY", "SecretAccessKey", "aws_secret_access_key"} {
		if bytes.Contains(raw, []byte(marker)) {
			t.Errorf("%s carries secret content (%s)", what, marker)
		}
	}
}

// denialShape is a turn's denials with the path it was about replaced, so
// two turns about different files compare.
func denialShape(r *protocol.TurnResponse, path string) string {
	raw, _ := json.Marshal(struct {
		Denials []protocol.Denial
		Reasons []string
		Result  map[string]any
	}{r.Denials, r.DenyReasons, r.Result})
	return strings.ReplaceAll(string(raw), path, "<path>")
}

// TestSecretsStayOut: a workspace holding a secret in each form people
// commit and a file of each secret name class. initialize_work and
// escalate never put one in the pack nor name one; reading, searching and
// patching one is denied exactly as for a file that does not exist.
func TestSecretsStayOut(t *testing.T) {
	ws, secrets, lexemes, control := secretWorkspace(t)
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, append(lexemes, "adp-alert")...)
	pack := packFiles(init)
	if !slices.Contains(pack, control) {
		t.Fatalf("the control file %s with the same bait is not in the pack %v: the test proves nothing", control, pack)
	}
	for _, name := range secrets {
		if slices.Contains(pack, name) {
			t.Errorf("initialize_work put %s in the pack", name)
		}
	}
	leaks(t, "initialize_work", init, secrets)
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(envelopeOf(init), true)}))

	for _, name := range secrets {
		missing := path.Join(path.Dir(name), "missing-"+path.Base(name))
		for _, probe := range []struct {
			verb string
			args func(string) map[string]any
		}{
			{"read_file_lines", func(p string) map[string]any { return map[string]any{"targetFile": p} }},
			{"search_codebase_text", func(p string) map[string]any {
				return map[string]any{"pattern": "=", "files": []string{p}}
			}},
			{"lookup_symbol_definition", func(p string) map[string]any {
				return map[string]any{"symbol": "SecretAccessKey", "targetFile": p}
			}},
			{"apply_code_patch", func(p string) map[string]any {
				return map[string]any{"planNodeId": "change-alert", "targetFile": p,
					"edits": []any{map[string]any{"op": "replace_text", "find": "sk_live_", "replace": "x"}}}
			}},
		} {
			got := a.turn(probe.verb, probe.args(name))
			mustDeny(t, got, "PACK_SCOPE_VIOLATION")
			want := a.turn(probe.verb, probe.args(missing))
			if g, w := denialShape(got, name), denialShape(want, missing); g != w {
				t.Errorf("%s on %s is told apart from a missing file:\n got %s\nwant %s", probe.verb, name, g, w)
			}
			leaks(t, probe.verb, got, nil)
		}
	}
	// A search over the whole pack does not reach them either.
	search := a.turn("search_codebase_text", map[string]any{"pattern": "sk_live_|ghp_|xoxb-|AccountKey|PRIVATE KEY|SecretAccessKey", "regex": true})
	mustAllow(t, search)
	if m, _ := search.Result["matches"].([]any); len(m) > 0 {
		t.Errorf("a pack-wide search found secrets: %v", m)
	}

	esc := a.turn("escalate", map[string]any{"need": strings.Join(lexemes, " ") + " api keys, tokens, private keys, credentials, env files"})
	mustAllow(t, esc)
	for _, name := range secrets {
		if slices.Contains(packFiles(esc), name) {
			t.Errorf("escalate put %s in the pack", name)
		}
	}
	leaks(t, "escalate", esc, secrets)
}

// TestSecretPatchedIntoPackFile: a pack file that gains a secret after the
// pack was built (a person's edit, a patch) is read and searched with the
// secret redacted, its lines keeping their numbers.
func TestSecretPatchedIntoPackFile(t *testing.T) {
	ws := newWorkspace(t)
	a := startServer(t, ws)
	a.initialize(demo.Prompt, "adp-alert")
	before := a.turn("read_file_lines", map[string]any{"targetFile": demo.Target})
	mustAllow(t, before)
	lines := before.Result["totalLines"]

	original, err := os.ReadFile(filepath.Join(ws, demo.Target))
	must(t, err)
	token := fakeSecret(t, "billing.ts")
	must(t, os.WriteFile(filepath.Join(ws, demo.Target), append(append([]byte{}, token...), original...), 0o644))

	after := a.turn("read_file_lines", map[string]any{"targetFile": demo.Target})
	mustAllow(t, after)
	content, _ := after.Result["content"].(string)
	if strings.Contains(content, "sk_live_") || !strings.Contains(content, "[REDACTED:stripe-access-token]") {
		t.Errorf("the read returned the secret, or no redaction mark:\n%s", content)
	}
	if !strings.Contains(content, "adp-alert") {
		t.Errorf("the rest of the file was withheld too:\n%s", content)
	}
	if after.Result["totalLines"].(float64) != lines.(float64)+1 {
		t.Errorf("totalLines %v, want %v: redaction must keep line numbers", after.Result["totalLines"], lines.(float64)+1)
	}
	search := a.turn("search_codebase_text", map[string]any{"pattern": "sk_live"})
	mustAllow(t, search)
	if m, _ := search.Result["matches"].([]any); len(m) > 0 {
		t.Errorf("search found the secret: %v", m)
	}
}
