package openapi

import (
	"encoding/json"
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
