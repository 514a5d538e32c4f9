package controller

import (
	"encoding/json"
	"testing"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/graph"
	"github.com/mcpc/mcpc/schemas"
)

// The input's own encoding is json.Marshal's, byte for byte: the engine
// judges it and the decision record keeps it.
func TestInputAppendJSONIsMarshal(t *testing.T) {
	checker, err := schemas.NewRequestChecker()
	if err != nil {
		t.Fatal(err)
	}
	c := &Controller{cfg: &config.Config{}, requests: checker}
	c.cfg.Request.MaxBytes = 1 << 20
	decoded := func(raw string) input {
		tr := &turn{}
		c.decode(tr, []byte(raw))
		return tr.in
	}
	config, err := encodeOnce(configFacts{EvidencePolicy: map[string]any{"b": 1.0, "a": []any{"<&>"}}, ValidationCommands: []string{"x"}})
	if err != nil {
		t.Fatal(err)
	}
	sandbox, err := encodeOnce(sandboxFacts{Reason: "no \"bwrap\" <here>"})
	if err != nil {
		t.Fatal(err)
	}
	envelope := envelopeValuesOf(envelopeKey{workID: "w<1>", agentID: "a", packHash: "sha256:ab"}, "v1")
	envText, _ := json.Marshal(envelope)
	read := decoded(`{"verb":"read_file_lines","workId":"w","args":{"targetFile":"a/b.ts","startLine":1,"endLine":5}}`)
	read.Stage, read.State = stageRequest, "PLANNING"
	read.Config, read.Sandbox = config, sandbox
	read.Envelope = envelopeFacts{values: envelope, text: envText}
	read.Paths["targetFile"] = pathFacts{Hash: "sha256:1"}
	read.Pack = packFacts{Ref: "r", Files: []string{"a/b.ts", "é\u2028"}}
	gathered := read
	gathered.Enforcement = enforcementFacts{Gathered: true, Now: "2026-01-01T00:00:00Z", Contracts: []graph.ComponentFacts{{}}}
	gathered.Submission = map[string]any{"nodes": []any{map[string]any{"id": "n<1>"}}}
	for _, tc := range []struct {
		note string
		in   input
	}{
		{note: "zero", in: input{}},
		{note: "decoded, nothing gathered", in: decoded(`{"verb":"read_file_lines"}`)},
		{note: "not JSON", in: decoded(`{"verb":`)},
		{note: "read turn", in: read},
		{note: "gathered facts", in: gathered},
		{note: "config and sandbox not encoded", in: input{Config: configMember{value: configFacts{ScratchMaxBytes: 1}}, Sandbox: sandboxMember{value: sandboxFacts{Available: true}}}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			want, err := json.Marshal(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tc.in.AppendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Fatalf("AppendJSON\n got %s\nwant %s", got, want)
			}
		})
	}
}
