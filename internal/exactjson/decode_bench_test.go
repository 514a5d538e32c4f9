package exactjson

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// plan200 is a submit_execution_plan request with 200 nodes, the size the
// bench package's Plan200 benchmarks decide.
func plan200() []byte {
	nodes := make([]string, 200)
	for i := range nodes {
		nodes[i] = fmt.Sprintf(`{"nodeId":"change-%d","kind":"change","dependsOn":[],"atomicityBoundary":"file",`+
			`"expectedFailureSignatures":["x"],"correctionCandidateOnFail":"revert","operation":"modify",`+
			`"targetFile":"src/app/f%d.ts","targetSymbols":["A"],"whyThisFile":"it renders the tag","editIntent":"swap the tag",`+
			`"verificationHooks":[{"recipeId":"run_targeted_validation","params":{"commandId":"unit"}}],`+
			`"citations":[{"source":"prompt","ref":"originalPrompt","quote":"migrate"}],"codeEvidence":[{"file":"src/app/f%d.ts","startLine":1,"endLine":2}]}`, i, i, i)
	}
	return []byte(`{"verb":"submit_execution_plan","workId":"work-1","agentId":"agent-1","args":{"planGraph":{"workId":"work-1",` +
		`"planFingerprint":"fp","sourceTraceRefs":[],"nodes":[` + strings.Join(nodes, ",") + `]}}}`)
}

func BenchmarkDecodePlan200(b *testing.B) {
	data := plan200()
	b.Run("exactjson", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, probs, err := Decode(data); err != nil || len(probs) > 0 {
				b.Fatal(err, probs)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
