package jira

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/connector"
)

func TestFetchSlicesARecordedIssue(t *testing.T) {
	body, err := os.ReadFile("../../../test/e2e/testdata/connectors/jira-SHOP-42.json")
	if err != nil {
		t.Fatal(err)
	}
	var query string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/rest/api/3/issue/SHOP-42" || r.Header.Get("Authorization") != "Bearer t0k" {
			w.WriteHeader(404)
			return
		}
		query = r.URL.Query().Get("fields")
		w.Write(body)
	}))
	defer srv.Close()
	is, _, err := Fetch(context.Background(), connector.New(connector.Options{}),
		Config{BaseURL: srv.URL + "/", Token: "t0k", AcceptanceCriteriaFields: []string{"customfield_10034"}}, "SHOP-42")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(query, "customfield_10034") || !strings.Contains(query, "issuelinks") {
		t.Errorf("fields asked: %q", query)
	}
	if is.Summary == "" || is.IssueType != "Story" || is.Status != "In Progress" {
		t.Errorf("issue %+v", is)
	}
	for _, want := range []string{"fulfilmentStatus", "- Use OrdersService", "@Dana Ops", "```"} {
		if !strings.Contains(is.Description, want) {
			t.Errorf("description lacks %q:\n%s", want, is.Description)
		}
	}
	if len(is.AcceptanceCriteria) != 1 || !strings.Contains(is.AcceptanceCriteria[0], "- Given an order with status SHIPPED") {
		t.Errorf("acceptance criteria %q", is.AcceptanceCriteria)
	}
	if !slices.Equal(is.Labels, []string{"orders", "api-contract"}) || !slices.Equal(is.Components, []string{"orders-ui", "orders-service"}) {
		t.Errorf("labels %v components %v", is.Labels, is.Components)
	}
	if len(is.Links) != 2 || is.Links[0] != (Link{Key: "SHOP-40", Relation: "is blocked by"}) || is.Links[1].Key != "SHOP-45" {
		t.Errorf("links %+v", is.Links)
	}
}

func TestFetchFailures(t *testing.T) {
	for _, tc := range []struct {
		note string
		body string
		code string
	}{
		{"not JSON", "<html>login</html>", connector.CodeMalformed},
		{"another issue", `{"key": "SHOP-1", "fields": {}}`, connector.CodeMalformed},
		{"labels of the wrong type", `{"key": "SHOP-42", "fields": {"labels": 3}}`, connector.CodeMalformed},
	} {
		t.Run(tc.note, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(tc.body)) }))
			defer srv.Close()
			_, _, err := Fetch(context.Background(), connector.New(connector.Options{}), Config{BaseURL: srv.URL, Token: "x"}, "SHOP-42")
			if e := connector.AsError(err); e == nil || e.Code != tc.code {
				t.Fatalf("got %v", err)
			}
		})
	}
	if _, _, err := Fetch(context.Background(), connector.New(connector.Options{}), Config{BaseURL: "http://127.0.0.1:1", Token: "x"}, "../../admin-1"); connector.AsError(err).Code != connector.CodeMalformed {
		t.Errorf("a key that is not one reached the URL: %v", err)
	}
}

func TestKeys(t *testing.T) {
	re := regexp.MustCompile(`[A-Z][A-Z0-9]+-\d+`)
	got := Keys(re, 2, "Fix SHOP-42 and SHOP-7", "SHOP-42 again, OPS-1")
	if !slices.Equal(got, []string{"SHOP-42", "SHOP-7"}) {
		t.Errorf("got %v", got)
	}
}
