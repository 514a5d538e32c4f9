package openapi

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

const fixtures = "../../../test/e2e/testdata/connectors/"

func load(t *testing.T, name string) *Spec {
	t.Helper()
	data, err := os.ReadFile(fixtures + name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func refs(ops []*Operation) []string {
	out := []string{}
	for _, o := range ops {
		out = append(out, o.Ref())
	}
	return out
}

func TestMatch(t *testing.T) {
	s := load(t, "orders-openapi-3.1.yaml")
	for _, tc := range []struct {
		note    string
		prompt  string
		lexemes []string
		want    []string
	}{
		{"a path names every method of it", "the grid reads /orders/{orderId} today", nil, []string{"GET /orders/{orderId}", "DELETE /orders/{orderId}"}},
		{"a method before the path narrows it", "call GET /orders/{orderId} for the status", nil, []string{"GET /orders/{orderId}"}},
		{"a concrete path matches its template", "see get /orders/1234 in the orders grid", nil, []string{"GET /orders/{orderId}"}},
		{"a path is not a prefix match", "GET /orders/{orderId}/lines", nil, []string{}},
		{"an operationId", "x", []string{"createOrder"}, []string{"POST /orders"}},
		{"a tag prompt words do not select", "stock levels", nil, []string{}},
		{"a tag lexemes select", "x", []string{"stock"}, []string{"GET /stock/{sku}"}},
		{"nothing", "rename the dashboard", nil, []string{}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := refs(s.Match(tc.prompt, tc.lexemes, 10)); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSliceResolvesRefsWithinItsBound(t *testing.T) {
	s := load(t, "orders-openapi-3.1.yaml")
	op := s.Match("getOrder", nil, 1)[0]
	sl, raw := s.Slice(op, 64<<10)
	if sl.Ref != "GET /orders/{orderId}" || len(sl.Parameters) != 1 || sl.Parameters[0].Name != "orderId" {
		t.Fatalf("slice %+v", sl)
	}
	text := string(raw)
	for _, want := range []string{`"SHIPPED"`, `"fulfilmentStatus"`, `"OrderLine"`, `"application/problem+json"`, `"null"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the slice lacks %s: %s", want, text)
		}
	}
	if !strings.Contains(text, `{"$ref":"Order"}`) {
		t.Errorf("the recursive Order.replaces is not cut at its ref: %s", text)
	}
	small, raw := s.Slice(op, 600)
	if len(raw) > 600 && !small.Truncated {
		t.Errorf("a %d-byte slice over a 600-byte bound is not marked truncated", len(raw))
	}
	var back map[string]any
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
}

func TestSwagger2(t *testing.T) {
	s := load(t, "petstore-swagger-2.0.json")
	ops := s.Match("", []string{"showPetById"}, 5)
	if len(ops) != 1 || ops[0].Ref() != "GET /pets/{petId}" {
		t.Fatalf("ops %v", refs(ops))
	}
	_, raw := s.Slice(ops[0], 64<<10)
	if !strings.Contains(string(raw), `"int64"`) {
		t.Errorf("the Pet definition was not resolved: %s", raw)
	}
}

func TestMalformed(t *testing.T) {
	for _, doc := range []string{"{", "openapi: 9.0\n", `{"openapi": "3.1.0", "paths": {"/a": {"get": {"responses": {"200": {"$ref": "other.yaml#/x"}}}}}}`} {
		if _, err := Parse("spec", []byte(doc)); err == nil {
			t.Errorf("%q parsed", doc)
		}
	}
}

// TestFanOutIsBounded: schemas that fan out (each of 60 properties an
// object of the next level's 60) render within the node budget.
func TestFanOutIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/a": {"get": {"operationId": "getA", "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/L0"}}}}}}}}, "components": {"schemas": {`)
	for l := 0; l < 8; l++ {
		if l > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"L%d": {"type": "object", "properties": {`, l)
		for p := 0; p < 60; p++ {
			if p > 0 {
				b.WriteString(",")
			}
			if l < 7 {
				fmt.Fprintf(&b, `"p%d": {"$ref": "#/components/schemas/L%d"}`, p, l+1)
			} else {
				fmt.Fprintf(&b, `"p%d": {"type": "string"}`, p)
			}
		}
		b.WriteString("}}")
	}
	b.WriteString("}}}")
	s, err := Parse("fan.json", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	sl, raw := s.Slice(s.Match("getA", nil, 1)[0], 32<<10)
	if len(raw) > 32<<10 || sl.Depth == 8 {
		t.Fatalf("%d bytes at depth %d", len(raw), sl.Depth)
	}
}

// TestIndexRoundTrip: a spec read back from its entries matches and slices
// as the parsed one did.
func TestIndexRoundTrip(t *testing.T) {
	s := load(t, "orders-openapi-3.1.yaml")
	raw, err := json.Marshal(s.Entries(8 << 10))
	if err != nil {
		t.Fatal(err)
	}
	var entries []Entry
	if err := json.Unmarshal(raw, &entries); err != nil {
		t.Fatal(err)
	}
	back := FromEntries(s.Name, s.Version, entries)
	for _, prompt := range []string{"call GET /orders/{orderId}", "see /orders/77 and createOrder"} {
		a, b := s.Match(prompt, []string{"stock"}, 10), back.Match(prompt, []string{"stock"}, 10)
		if !slices.Equal(refs(a), refs(b)) {
			t.Fatalf("%q: parsed %v, read back %v", prompt, refs(a), refs(b))
		}
		for i := range a {
			_, want := s.Slice(a[i], 8<<10)
			_, got := back.Slice(b[i], 8<<10)
			if string(want) != string(got) {
				t.Errorf("%s: the slice read back differs", a[i].Ref())
			}
		}
	}
}
