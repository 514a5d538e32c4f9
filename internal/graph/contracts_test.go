package graph

import (
	"os"
	"reflect"
	"testing"
)

func TestParseContracts(t *testing.T) {
	src, err := os.ReadFile("testdata/workspace/src/design-system/components.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseContracts(src)
	if err != nil {
		t.Fatal(err)
	}
	want := []Contract{
		{Tag: "sdf-alert", Props: []ContractProp{{"severity", "'info' | 'warning' | 'error'", false}, {"heading", "string", true}}, Events: []string{"sdfDismiss"}},
		{Tag: "sdf-button", Props: []ContractProp{{"variant", `"primary" | "secondary"`, false}, {"disabled", "boolean", false}, {"label", "string", true}},
			Events: []string{"sdf-focus", "sdfChange"}},
		{Tag: "sdf-data-grid", Props: []ContractProp{{"rows", "Array<Record<string, unknown>>", true}, {"columns", "GridColumn[]", true}}, Events: []string{}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}
