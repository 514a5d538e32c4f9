package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// benchInputs are the documents the conversion benchmarks run on: the
// recorded read turn, the 200-node plan submission (~120 KB) and, when
// MCPC_BENCH_INPUT names one, a recorded input file (e.g. the plan input
// bench/ dumps with MCPC_BENCH_DUMP).
func benchInputs(b *testing.B) []struct {
	note string
	json []byte
} {
	read, err := os.ReadFile("testdata/read-input.json")
	if err != nil {
		b.Fatal(err)
	}
	plan, err := json.Marshal(plan200Input(b))
	if err != nil {
		b.Fatal(err)
	}
	inputs := []struct {
		note string
		json []byte
	}{{"read", read}, {"plan200", plan}}
	if path := os.Getenv("MCPC_BENCH_INPUT"); path != "" {
		raw, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		inputs = append(inputs, struct {
			note string
			json []byte
		}{"file", raw})
	}
	return inputs
}

// BenchmarkParseInput converts input JSON to OPA's value form: the way it
// was done (ValueFromReader: decode to interface{}, then convert) and the
// one-pass valueFromJSON.
func BenchmarkParseInput(b *testing.B) {
	for _, in := range benchInputs(b) {
		b.Run(in.note+"/ValueFromReader", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.json)))
			for b.Loop() {
				if _, err := ast.ValueFromReader(bytes.NewReader(in.json)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(in.note+"/valueFromJSON", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.json)))
			for b.Loop() {
				if _, err := valueFromJSON(in.json); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkResult turns an evaluated decision into its JSON record and the
// decoded struct: the way it was done (rego's Go values, json.Marshal,
// json.Unmarshal), resultJSON then json.Unmarshal, and resultJSON then
// decodeResult (the decision read from its value).
func BenchmarkResult(b *testing.B) {
	ctx := context.Background()
	e, err := New(ctx, Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, in := range benchInputs(b) {
		v, err := valueFromJSON(in.json)
		if err != nil {
			b.Fatal(err)
		}
		rs, err := e.query.Eval(ctx, rego.EvalParsedInput(v), astResult)
		if err != nil || len(rs) == 0 {
			b.Fatal(err)
		}
		dec := rs[0].Expressions[0].Value.(ast.Value)
		b.Run(in.note+"/JSON+Marshal+Unmarshal", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				x, err := ast.JSON(dec)
				if err != nil {
					b.Fatal(err)
				}
				raw, err := json.Marshal(x)
				if err != nil {
					b.Fatal(err)
				}
				var out turnDecision
				if err := json.Unmarshal(raw, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, d := range []struct {
			name   string
			decode func(raw []byte, out *turnDecision) error
		}{
			{"resultJSON+Unmarshal", func(raw []byte, out *turnDecision) error { return json.Unmarshal(raw, out) }},
			{"resultJSON+decodeResult", func(raw []byte, out *turnDecision) error { return decodeResult(dec, raw, out) }},
		} {
			b.Run(in.note+"/"+d.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					raw, err := resultJSON(dec)
					if err != nil {
						b.Fatal(err)
					}
					var out turnDecision
					if err := d.decode(raw, &out); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEvaluate is the engine's whole share of a turn: marshal the
// input, convert it, evaluate the embedded policies, write and decode the
// decision.
func BenchmarkEvaluate(b *testing.B) {
	ctx := context.Background()
	e, err := New(ctx, Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, in := range benchInputs(b) {
		doc := json.RawMessage(in.json)
		b.Run(in.note, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var out turnDecision
				if _, _, err := e.Evaluate(ctx, doc, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
