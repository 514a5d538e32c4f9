package retrieval

import (
	"math"
	"testing"
)

// declarationSources is a small TypeScript package: a types file, a
// barrel, an entry file that defines functions, and the code.
var declarationSources = map[string]string{
	"packages/element/src/types.ts": `export type ElementId = string;
export interface ArrowBinding { elementId: ElementId; gap: number; focus: number; }
export enum BindingMode { Fixed, Orbit }
export const DEFAULT_BINDING_GAP = 4;
export function isArrowBinding(x: any): x is ArrowBinding { return x && typeof x.gap === "number"; }
`,
	"packages/element/src/index.ts": `export * from "./binding";
export * from "./types";
export { updateBoundElements } from "./binding";
`,
	"packages/element/src/binding.d.ts": "export interface ArrowBindingOptions { gap: number; }\nexport type Gap = number;\n",
	"packages/element/src/binding.ts": `import { ArrowBinding, DEFAULT_BINDING_GAP } from "./types";
export function bindArrow(binding: ArrowBinding) { return { ...binding, gap: DEFAULT_BINDING_GAP }; }
export function updateBoundElements(binding: ArrowBinding, gap: number) { binding.gap = Math.max(gap, DEFAULT_BINDING_GAP); }
`,
	"packages/excalidraw/data/index.ts": `import { ArrowBinding } from "../../element/src/types";
export const saveBinding = async (binding: ArrowBinding) => { await fetch("/save", { body: JSON.stringify(binding) }); };
`,
	"packages/excalidraw/components/Types.tsx": "export const Types = () => <div>arrow binding gap</div>;\n",
}

func TestDeclarationFiles(t *testing.T) {
	ix := indexFiles(t, declarationSources)
	d := derive(ix)
	for _, tc := range []struct {
		note, file string
		want       bool
	}{
		{"the module's types, a type guard among them", "packages/element/src/types.ts", true},
		{"a barrel that only re-exports", "packages/element/src/index.ts", true},
		{"a declaration file", "packages/element/src/binding.d.ts", true},
		{"the code", "packages/element/src/binding.ts", false},
		{"an entry file that defines functions", "packages/excalidraw/data/index.ts", false},
		{"a component renders, whatever it is called", "packages/excalidraw/components/Types.tsx", false},
	} {
		t.Run(tc.note, func(t *testing.T) {
			doc, ok := d.corpus.Doc(tc.file)
			if !ok {
				t.Fatalf("%s not indexed", tc.file)
			}
			if got := d.declares[doc]; got != tc.want {
				t.Errorf("declares[%s] = %v, want %v", tc.file, got, tc.want)
			}
		})
	}
}

// TestDeclarationsRankBehindCode: "fix arrow binding gap" is about the
// code that binds arrows; the types file and the barrel name every word
// of it and keep their places at declarationPrior of their scores, the
// code its score whole.
func TestDeclarationsRankBehindCode(t *testing.T) {
	ix := indexFiles(t, declarationSources)
	q := Query{Prompt: "fix arrow binding gap"}
	scores := func(prior float64) map[string]float64 {
		saved := declarationPrior
		declarationPrior = prior
		defer func() { declarationPrior = saved }()
		out := map[string]float64{}
		for _, r := range Rank(ix, q) {
			out[r.File] = r.Score
		}
		return out
	}
	whole, scaled := scores(1), scores(declarationPrior)
	for _, tc := range []struct {
		note, file string
		factor     float64
	}{
		{"the types file", "packages/element/src/types.ts", declarationPrior},
		{"the code", "packages/element/src/binding.ts", 1},
	} {
		t.Run(tc.note, func(t *testing.T) {
			w, ok := whole[tc.file]
			if !ok {
				t.Fatalf("%s not ranked: %v", tc.file, whole)
			}
			if want := w * tc.factor; math.Abs(scaled[tc.file]-want) > 0.002 {
				t.Errorf("%s scored %v, want %v", tc.file, scaled[tc.file], want)
			}
		})
	}
	if scaled["packages/element/src/binding.ts"] <= scaled["packages/element/src/types.ts"] {
		t.Errorf("scores = %v, want binding.ts above types.ts", scaled)
	}
}
