package engine

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// BenchmarkParseInput converts a recorded input document (MCPC_BENCH_INPUT,
// e.g. the 200-node plan dumped by bench/) to OPA's value form.
func BenchmarkParseInput(b *testing.B) {
	path := os.Getenv("MCPC_BENCH_INPUT")
	if path == "" {
		b.Skip("set MCPC_BENCH_INPUT to a decision input JSON file")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var doc any
	_ = json.Unmarshal(raw, &doc)
	b.Run("ValueFromReader", func(b *testing.B) {
		for b.Loop() {
			if _, err := ast.ValueFromReader(bytes.NewReader(raw)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("InterfaceToValue", func(b *testing.B) {
		for b.Loop() {
			if _, err := ast.InterfaceToValue(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Unmarshal+InterfaceToValue", func(b *testing.B) {
		for b.Loop() {
			var d any
			_ = json.Unmarshal(raw, &d)
			if _, err := ast.InterfaceToValue(d); err != nil {
				b.Fatal(err)
			}
		}
	})
}
