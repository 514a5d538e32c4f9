//go:build unix

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/mcpc/mcpc/internal/controller"
	"github.com/mcpc/mcpc/internal/engine"
	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/store"
)

// familyRules is how many MigrationRules (and sdf contracts) are in play.
const familyRules = 40

// familiesInput is a recorded submission input of the example work with
// its plan replaced by one of n nodes (half change, half validate) and the
// enforcement bundle filled: familyRules MigrationRules of every status,
// their sdf contracts, two tags per pack file (under the migration
// strategy each change node cites the rules of its file's tags), 20 active
// memory plan_rules and a grounded prose policy. The plan meets them all,
// so every rule walks every node.
func familiesInput(b *testing.B, n int) (*engine.Engine, []*engine.Input) {
	a, init := started(b)
	r := turn(b, a, map[string]any{"verb": "submit_execution_plan", "workId": init.WorkID, "agentId": init.AgentID,
		"args": map[string]any{"planGraph": plan200(init)}})
	if len(r.Denials) > 0 {
		b.Fatal(r.DenyReasons)
	}
	var rec []byte
	if err := a.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		rec, err = tx.Decision(context.Background(), init.WorkID, 2)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	var doc struct {
		Input map[string]any `json:"input"`
	}
	if err := json.Unmarshal(rec, &doc); err != nil {
		b.Fatal(err)
	}
	in := doc.Input
	statuses := []string{"approved", "candidate", "unknown", "no_analog"}
	var rules, contracts []any
	for i := range familyRules {
		rules = append(rules, map[string]any{"id": fmt.Sprintf("mig-adp-c%02d", i), "fromTag": fmt.Sprintf("adp-c%02d", i),
			"toTag": fmt.Sprintf("sdf-c%02d", i), "status": statuses[i%len(statuses)], "propMappings": map[string]any{"type": "variant"}})
		contracts = append(contracts, map[string]any{"tag": fmt.Sprintf("sdf-c%02d", i), "declared": true, "props": []any{
			map[string]any{"name": "variant", "type": "string", "required": false},
			map[string]any{"name": "label", "type": "string", "required": true},
		}})
	}
	files := packFiles(init)
	fileTags := map[string]any{}
	tagsOf := map[string][]int{}
	for i, f := range files {
		tagsOf[f] = []int{i % familyRules, (i + 1) % familyRules}
		fileTags[f] = []string{fmt.Sprintf("adp-c%02d", i%familyRules), fmt.Sprintf("adp-c%02d", (i+1)%familyRules)}
	}
	var memories []any
	for i := range 20 {
		memories = append(memories, map[string]any{"id": fmt.Sprintf("mem-%02d", i), "state": "approved", "enforcementType": "plan_rule",
			"expiresAt": "2099-01-01T00:00:00Z",
			"planRule": map[string]any{"condition": map[string]any{"fileGlobs": []string{"src/**"}, "tags": []string{fmt.Sprintf("adp-c%02d", i)}},
				"requiredSteps": []any{map[string]any{"kind": "validate", "commandId": "no-adp-alert"}}, "denyCode": "PLAN_VERIFICATION_WEAK"}})
	}
	in["enforcement"] = map[string]any{
		"gathered": true, "now": "2026-11-25T00:00:00Z", "migrationRules": rules, "contracts": contracts, "macroConstraints": []any{},
		"prose": []any{map[string]any{"id": "prose:docs/ui.md:3", "file": "docs/ui.md", "line": 3, "text": "Status messages must use sdf-c00",
			"strength": "must", "scopes": []string{""}, "mentions": []string{"sdf-c00"}, "grounded": true,
			"examples": []any{map[string]any{"file": files[0], "line": 1, "endLine": 1, "anchor": "src", "attrs": ""}}}},
		"fileTags": fileTags, "memories": memories, "problems": []any{}, "ingested": []any{},
	}
	sub := in["submission"].(map[string]any)
	base := sub["nodes"].([]any)
	var nodes []any
	for i := 0; i < n/2; i++ {
		change := clone(base[0])
		validate := clone(base[1])
		id := fmt.Sprintf("change-%04d", i)
		file := files[i%len(files)]
		tag := (i * 7) % familyRules
		refs := []string{fmt.Sprintf("mig-adp-c%02d", tag), "prose:docs/ui.md:3"}
		for _, t := range tagsOf[file] {
			refs = append(refs, fmt.Sprintf("mig-adp-c%02d", t))
		}
		change["nodeId"], change["targetFile"] = id, file
		change["codeEvidence"] = []any{map[string]any{"file": file, "startLine": 1}}
		change["editIntent"] = fmt.Sprintf("replace adp-c%02d with sdf-c%02d", tag, tag)
		change["targetSymbols"] = []string{fmt.Sprintf("adp-c%02d", tag)}
		change["policyRefs"] = refs
		change["lowEvidenceGuard"], change["uncertaintyNote"], change["requiresHumanReview"] = true, "mapping not vetted", true
		change["fallback"] = "wrap it"
		change["componentMapping"] = map[string]any{"fromTag": fmt.Sprintf("adp-c%02d", tag), "toTag": fmt.Sprintf("sdf-c%02d", tag), "props": []string{"variant", "label"}}
		if i > 0 {
			change["dependsOn"] = []string{fmt.Sprintf("change-%04d", i-1)}
		} else {
			change["dependsOn"] = []string{}
		}
		validate["nodeId"] = fmt.Sprintf("validate-%04d", i)
		validate["dependsOn"] = []string{id}
		validate["mapsToNodeIds"] = []string{id}
		nodes = append(nodes, change, validate)
	}
	sub["nodes"] = nodes
	return a.Engine.Current(), familyVariants(b, in, n)
}

// familyVariants converts the input as familyVariantCount submissions that
// differ as two turns' do (one node's editIntent, the clock), each with Go's
// facts of its own plan. The engine keeps rule values by the input members
// they read, so evaluating one input again and again would measure that
// memo; cycling through more variants than it keeps measures a fresh plan.
func familyVariants(b *testing.B, in map[string]any, n int) []*engine.Input {
	const familyVariantCount = 8
	raw, err := json.Marshal(in)
	if err != nil {
		b.Fatal(err)
	}
	var out []*engine.Input
	for i := range familyVariantCount {
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			b.Fatal(err)
		}
		sub := doc["submission"].(map[string]any)
		node := sub["nodes"].([]any)[0].(map[string]any)
		node["editIntent"] = fmt.Sprintf("%s (variant %d)", node["editIntent"], i)
		doc["enforcement"].(map[string]any)["now"] = fmt.Sprintf("2026-11-25T00:00:%02dZ", i)
		// the recorded facts describe the recorded plan: Go's facts of this
		// one, joined with the tags its targets use as the server joins them
		facts, err := json.Marshal(controller.SubmissionFactsOf(sub, fileTagsOf(b, doc)))
		if err != nil {
			b.Fatal(err)
		}
		var factsDoc any
		if err := json.Unmarshal(facts, &factsDoc); err != nil {
			b.Fatal(err)
		}
		doc["submissionFacts"] = factsDoc
		if dump := os.Getenv("MCPC_BENCH_DUMP"); dump != "" && i == 0 {
			raw, _ := json.Marshal(doc)
			_ = os.WriteFile(fmt.Sprintf("%s.%d", dump, n), raw, 0o644) // for `opa eval --profile`
		}
		parsed, err := engine.ParseInput(doc)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, parsed)
	}
	return out
}

// fileTagsOf is the input's enforcement fileTags, typed.
func fileTagsOf(b *testing.B, doc map[string]any) map[string][]string {
	raw, err := json.Marshal(doc["enforcement"].(map[string]any)["fileTags"])
	if err != nil {
		b.Fatal(err)
	}
	var out map[string][]string
	if err := json.Unmarshal(raw, &out); err != nil {
		b.Fatal(err)
	}
	return out
}

func clone(v any) map[string]any {
	out := map[string]any{}
	for k, x := range v.(map[string]any) {
		out[k] = x
	}
	return out
}

// BenchmarkFamiliesDecision is the submission decision alone with
// MigrationRules, plan_rules, contracts and grounded prose in play, for
// plans of 10, 200 and 2,000 nodes.
func BenchmarkFamiliesDecision(b *testing.B) {
	for _, n := range []int{10, 200, 2000} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			eng, ins := familiesInput(b, n)
			var out struct {
				Allow   bool              `json:"allow"`
				Denials []protocol.Denial `json:"denials"`
			}
			for _, in := range ins {
				if _, err := eng.Eval(context.Background(), in, &out); err != nil || !out.Allow {
					b.Fatal(err, out.Denials)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			start := processCPU()
			i := 0
			for b.Loop() {
				if _, err := eng.Eval(context.Background(), ins[i%len(ins)], &out); err != nil {
					b.Fatal(err)
				}
				i++
			}
			// On a machine shared with other builds wall time says more
			// about the neighbours than about the decision: CPU time too.
			b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}
