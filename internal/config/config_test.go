package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, ws, name, body string) {
	t.Helper()
	dir := filepath.Join(ws, ".ai", "config")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadLayers(t *testing.T) {
	ws := t.TempDir()
	c, err := Load(ws)
	if err != nil {
		t.Fatal(err)
	}
	if c.Budget.MaxTokens != 100000 || c.Budget.ThresholdPercent != 0.6 || c.Budget.SessionMaxTokens != 500000 || c.Budget.RequestMaxPercent != 0.2 || c.Pack.MaxFiles != 40 {
		t.Fatalf("defaults: %+v", c)
	}
	write(t, ws, "base.json", `{"budget": {"maxTokens": 1000}, "pack": {"maxFiles": 10},
		"validation": {"commands": {"unit": {"argv": ["go", "test"]}}}}`)
	write(t, ws, "repo.json", `{"pack": {"maxFiles": 20}, "validation": {"commands": {"lint": {"argv": ["vet"], "timeoutSec": 5}}}}`)
	write(t, ws, "env.local.json", `{"budget": {"thresholdPercent": 0.5}, "sandbox": {"network": true, "env": ["GOFLAGS"]}}`)
	t.Setenv("MCPC_PACK_MAX_FILES", "25")
	t.Setenv("MCPC_SANDBOX_ALLOW_UNSANDBOXED", "true")
	if c, err = Load(ws); err != nil {
		t.Fatal(err)
	}
	if c.Budget.MaxTokens != 1000 || c.Budget.WorkMaxTokens != 5000 || c.Budget.ThresholdPercent != 0.5 {
		t.Errorf("budget layers: %+v", c.Budget)
	}
	if c.Pack.MaxFiles != 25 {
		t.Errorf("MCPC_PACK_MAX_FILES did not win: %d", c.Pack.MaxFiles)
	}
	if len(c.Validation.Commands) != 2 || c.Validation.Commands["unit"].TimeoutSec != 120 || c.Validation.Commands["lint"].TimeoutSec != 5 {
		t.Errorf("validation commands merge: %+v", c.Validation.Commands)
	}
	if !c.Sandbox.Network || !c.Sandbox.AllowUnsandboxed || c.Sandbox.OutputMaxBytes != 1<<20 || len(c.Sandbox.Env) != 1 {
		t.Errorf("sandbox: %+v, want the network and GOFLAGS granted, unsandboxed allowed (MCPC_SANDBOX_ALLOW_UNSANDBOXED), 1 MiB of output", c.Sandbox)
	}
}

func TestLoadRejects(t *testing.T) {
	for _, tc := range []struct {
		note, file, body, env, want string
	}{
		{"malformed json", "repo.json", `{"budget":`, "", "repo.json"},
		{"unknown key", "repo.json", `{"budgett": {}}`, "", "budgett"},
		{"wrong type", "base.json", `{"pack": {"maxFiles": "many"}}`, "", "pack.maxFiles"},
		{"sandbox env not a name", "repo.json", `{"sandbox": {"env": ["A=B"]}}`, "", "sandbox.env"},
		{"sandbox writable absolute", "repo.json", `{"sandbox": {"writable": ["/tmp"]}}`, "", "sandbox.writable"},
		{"argv empty", "repo.json", `{"validation": {"commands": {"x": {"argv": []}}}}`, "", "argv"},
		{"env not a number", "", "", "MCPC_BUDGET_MAX_TOKENS=lots", "MCPC_BUDGET_MAX_TOKENS"},
		{"env not a boolean", "", "", "MCPC_SANDBOX_ALLOW_UNSANDBOXED=maybe", "MCPC_SANDBOX_ALLOW_UNSANDBOXED"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			ws := t.TempDir()
			if tc.file != "" {
				write(t, ws, tc.file, tc.body)
			}
			if name, value, ok := strings.Cut(tc.env, "="); ok {
				t.Setenv(name, value)
			}
			_, err := Load(ws)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}
