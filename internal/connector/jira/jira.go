// Package jira fetches Jira Cloud issues (REST v3) through the connector
// kernel and slices them to what an agent needs to plan: key, summary,
// description and acceptance criteria as plain text (from the Atlassian
// Document Format), labels, components and the keys of linked issues.
package jira

import (
	"context"
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpc/mcpc/internal/connector"
)

// Source is the connector's name in traces, the cache and citations.
const Source = "jira"

// Config is what a fetch needs.
type Config struct {
	BaseURL string // https://example.atlassian.net
	Token   string // never logged
	// AcceptanceCriteriaFields are the custom fields that hold acceptance
	// criteria (customfield_10034 ...).
	AcceptanceCriteriaFields []string
	// MaxTextBytes bounds the description and each criterion; default 16 KiB.
	MaxTextBytes int
}

// Issue is the slice of an issue an agent sees.
type Issue struct {
	Key                string   `json:"key"`
	Summary            string   `json:"summary"`
	IssueType          string   `json:"issueType,omitempty"`
	Status             string   `json:"status,omitempty"`
	Description        string   `json:"description"`
	AcceptanceCriteria []string `json:"acceptanceCriteria"`
	Labels             []string `json:"labels"`
	Components         []string `json:"components"`
	Links              []Link   `json:"links"`
}

// Link is a linked issue: its key and how it relates.
type Link struct {
	Key      string `json:"key"`
	Relation string `json:"relation"` // "blocks", "is blocked by", ...
}

// Text is what the issue tells retrieval and the ContextSignature.
func (i *Issue) Text() []string {
	out := []string{i.Key, i.Summary, i.Description}
	out = append(out, i.AcceptanceCriteria...)
	out = append(out, i.Labels...)
	return append(out, i.Components...)
}

// Keys finds the ticket keys pattern matches in texts, once each, in order,
// at most max of them.
func Keys(pattern *regexp.Regexp, max int, texts ...string) []string {
	var out []string
	for _, t := range texts {
		for _, k := range pattern.FindAllString(t, -1) {
			if !slices.Contains(out, k) && len(out) < max {
				out = append(out, k)
			}
		}
	}
	return out
}

// validKey is what a key must look like before it goes into a URL path.
var validKey = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*-[0-9]+$`)

// Fetch gets one issue. The response's trace is returned even on failure.
func Fetch(ctx context.Context, k *connector.Kernel, cfg Config, key string) (*Issue, *connector.Response, error) {
	if !validKey.MatchString(key) {
		return nil, &connector.Response{}, connector.Errorf(connector.CodeMalformed, "%q is not an issue key", key)
	}
	if cfg.BaseURL == "" {
		return nil, &connector.Response{}, connector.Errorf(connector.CodeNotConfigured, "connectors.jira.baseUrl is not set")
	}
	if cfg.Token == "" {
		return nil, &connector.Response{}, connector.Errorf(connector.CodeNotConfigured, "no Jira token is configured")
	}
	fields := append([]string{"summary", "description", "labels", "components", "issuelinks", "issuetype", "status"}, cfg.AcceptanceCriteriaFields...)
	u := strings.TrimRight(cfg.BaseURL, "/") + "/rest/api/3/issue/" + url.PathEscape(key) + "?fields=" + url.QueryEscape(strings.Join(fields, ","))
	res, err := k.Get(ctx, connector.Request{Source: Source, URL: u, Token: cfg.Token})
	if err != nil {
		return nil, res, err
	}
	issue, err := parse(res.Body, cfg)
	if err != nil {
		return nil, res, err
	}
	if !strings.EqualFold(issue.Key, key) {
		return nil, res, connector.Errorf(connector.CodeMalformed, "the answer is issue %q, not %s", clip(issue.Key, 40), key)
	}
	return issue, res, nil
}

type named struct {
	Name string `json:"name"`
}

type rawIssue struct {
	Key    string                     `json:"key"`
	Fields map[string]json.RawMessage `json:"fields"`
}

type rawLink struct {
	Type struct {
		Inward  string `json:"inward"`
		Outward string `json:"outward"`
	} `json:"type"`
	InwardIssue  *struct{ Key string } `json:"inwardIssue"`
	OutwardIssue *struct{ Key string } `json:"outwardIssue"`
}

func parse(body []byte, cfg Config) (*Issue, error) {
	max := cfg.MaxTextBytes
	if max <= 0 {
		max = 16 << 10
	}
	var r rawIssue
	if err := json.Unmarshal(body, &r); err != nil || r.Key == "" || r.Fields == nil {
		return nil, connector.Errorf(connector.CodeMalformed, "the answer is not a Jira issue")
	}
	bad := func(field string) error {
		return connector.Errorf(connector.CodeMalformed, "the issue's %s field is not what Jira sends", field)
	}
	is := &Issue{Key: r.Key, AcceptanceCriteria: []string{}, Labels: []string{}, Components: []string{}, Links: []Link{}}
	if raw, ok := r.Fields["summary"]; ok && json.Unmarshal(raw, &is.Summary) != nil {
		return nil, bad("summary")
	}
	is.Summary = clip(is.Summary, 1024)
	is.Description = clip(fieldText(r.Fields["description"]), max)
	for _, f := range cfg.AcceptanceCriteriaFields {
		if t := clip(fieldText(r.Fields[f]), max); t != "" {
			is.AcceptanceCriteria = append(is.AcceptanceCriteria, t)
		}
	}
	if raw, ok := r.Fields["labels"]; ok && string(raw) != "null" && json.Unmarshal(raw, &is.Labels) != nil {
		return nil, bad("labels")
	}
	var comps []named
	if raw, ok := r.Fields["components"]; ok && string(raw) != "null" && json.Unmarshal(raw, &comps) != nil {
		return nil, bad("components")
	}
	for _, c := range comps {
		is.Components = append(is.Components, c.Name)
	}
	var n named
	if json.Unmarshal(r.Fields["issuetype"], &n) == nil {
		is.IssueType = n.Name
	}
	n = named{}
	if json.Unmarshal(r.Fields["status"], &n) == nil {
		is.Status = n.Name
	}
	var links []rawLink
	if raw, ok := r.Fields["issuelinks"]; ok && string(raw) != "null" && json.Unmarshal(raw, &links) != nil {
		return nil, bad("issuelinks")
	}
	for _, l := range links {
		switch {
		case l.OutwardIssue != nil && l.OutwardIssue.Key != "":
			is.Links = append(is.Links, Link{Key: l.OutwardIssue.Key, Relation: l.Type.Outward})
		case l.InwardIssue != nil && l.InwardIssue.Key != "":
			is.Links = append(is.Links, Link{Key: l.InwardIssue.Key, Relation: l.Type.Inward})
		}
	}
	return is, nil
}

// fieldText reads a field that is a plain string or an ADF document.
func fieldText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var doc adfNode
	if json.Unmarshal(raw, &doc) != nil {
		return ""
	}
	var b strings.Builder
	doc.write(&b, 0)
	return strings.TrimSpace(collapseBlankLines(b.String()))
}

func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
