package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// Fixtures shared by the conversion tests and benchmarks: a recorded read
// turn input (testdata/read-input.json) and a plan submission built from
// it, shaped like the 200-node plan bench/ submits (~120 KB of JSON).

// readInput is the recorded input of a read_file_lines turn, as decoded
// JSON (the controller passes a struct; the bytes are the same).
func readInput(tb testing.TB) map[string]any {
	tb.Helper()
	raw, err := os.ReadFile("testdata/read-input.json")
	if err != nil {
		tb.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		tb.Fatal(err)
	}
	return doc
}

// plan200Input is readInput turned into a submit_execution_plan input with
// 100 change and 100 validate nodes, like bench's plan200.
func plan200Input(tb testing.TB) map[string]any {
	tb.Helper()
	doc := readInput(tb)
	env := doc["envelope"].(map[string]any)
	files := doc["pack"].(map[string]any)["files"].([]any)
	hooks := func() []any {
		return []any{map[string]any{"params": map[string]any{"commandId": "no-adp-alert"}, "recipeId": "run_targeted_validation"}}
	}
	nodes := make([]any, 0, 200)
	for i := range 100 {
		change := fmt.Sprintf("change-%03d", i)
		file := files[i%len(files)]
		depends := []any{}
		if i > 0 {
			depends = append(depends, fmt.Sprintf("change-%03d", i-1))
		}
		nodes = append(nodes, map[string]any{
			"atomicityBoundary":         "file",
			"citations":                 []any{map[string]any{"quote": doc["prompt"], "ref": "originalPrompt", "source": "prompt"}},
			"codeEvidence":              []any{map[string]any{"file": file, "startLine": json.Number("1")}},
			"correctionCandidateOnFail": "revert the template to adp-alert",
			"dependsOn":                 depends,
			"editIntent":                "replace <adp-alert type> with <sdf-alert severity>",
			"expectedFailureSignatures": []any{"unbalanced sdf-alert"},
			"kind":                      "change",
			"nodeId":                    change,
			"operation":                 "modify",
			"targetFile":                file,
			"targetSymbols":             []any{"adp-alert"},
			"verificationHooks":         hooks(),
			"whyThisFile":               "it is the only template that renders adp-alert on the dashboard",
		}, map[string]any{
			"atomicityBoundary":         "file",
			"correctionCandidateOnFail": "patch the remaining adp-alert",
			"dependsOn":                 []any{change},
			"expectedFailureSignatures": []any{"adp-alert is still used"},
			"kind":                      "validate",
			"mapsToNodeIds":             []any{change},
			"nodeId":                    fmt.Sprintf("validate-%03d", i),
			"successCriteria":           "no <adp-alert> remains under src/",
			"verificationHooks":         hooks(),
		})
	}
	sub := map[string]any{}
	for k, v := range env {
		sub[k] = v
	}
	sub["evidencePolicy"] = map[string]any{"minCodeEvidenceSources": 1, "minDistinctSources": 2, "minRequirementSources": 1}
	sub["knowledgeStrategyReasons"] = []any{map[string]any{"evidenceRefs": []any{files[1]}, "reason": "adp-alert usage found in the dashboard template"}}
	sub["nodes"] = nodes
	sub["planFingerprint"] = "demo-adp-alert-1"
	sub["sourceTraceRefs"] = []any{}
	doc["verb"] = "submit_execution_plan"
	doc["args"] = map[string]any{"planGraph": "(see input.submission)"}
	doc["paths"] = map[string]any{}
	doc["submission"] = sub
	doc["progress"] = map[string]any{"totalNodes": 200, "completedNodes": 0, "remainingNodes": 200}
	return doc
}

// turnDecision mirrors the controller's decision struct, so that decoding
// the result costs here what it costs there.
type turnDecision struct {
	Allow           *bool            `json:"allow"`
	State           string           `json:"state"`
	NextState       string           `json:"nextState"`
	WorkState       string           `json:"workState"`
	Capabilities    []string         `json:"capabilities"`
	Denials         []map[string]any `json:"denials"`
	Advisories      []map[string]any `json:"advisories"`
	SuggestedAction map[string]any   `json:"suggestedAction"`
	Strategy        map[string]any   `json:"strategy"`
	Pack            struct {
		Files    []string         `json:"files"`
		Excluded []map[string]any `json:"excluded"`
	} `json:"pack"`
	Outcome           string         `json:"outcome"`
	PackInsufficiency map[string]any `json:"packInsufficiency"`
	Obligations       struct {
		SearchScope []string `json:"searchScope"`
	} `json:"obligations"`
}
