package jira

import (
	"strings"
)

// adfNode is a node of the Atlassian Document Format, the JSON Jira Cloud
// v3 sends rich text in. Plain text keeps its structure as lines: a
// paragraph or heading per line, "- " for list items, "> " for quotes,
// code blocks fenced.
type adfNode struct {
	Type    string         `json:"type"`
	Text    string         `json:"text"`
	Content []adfNode      `json:"content"`
	Attrs   map[string]any `json:"attrs"`
}

// maxADFDepth bounds the walk of a hostile, deeply nested document.
const maxADFDepth = 32

func (n *adfNode) write(b *strings.Builder, depth int) {
	if depth > maxADFDepth {
		return
	}
	switch n.Type {
	case "text":
		b.WriteString(n.Text)
		return
	case "hardBreak":
		b.WriteString("\n")
		return
	case "mention", "emoji", "status", "date", "inlineCard":
		for _, k := range []string{"text", "shortName", "url", "timestamp"} {
			if s, ok := n.Attrs[k].(string); ok {
				b.WriteString(s)
				return
			}
		}
		return
	case "listItem":
		b.WriteString("- ")
	case "blockquote":
		b.WriteString("> ")
	case "codeBlock":
		b.WriteString("```\n")
	case "rule":
		b.WriteString("---\n")
		return
	}
	for i := range n.Content {
		n.Content[i].write(b, depth+1)
	}
	switch n.Type {
	case "paragraph", "heading", "tableRow":
		b.WriteString("\n")
	case "codeBlock":
		b.WriteString("\n```\n")
	case "tableCell", "tableHeader":
		b.WriteString(" | ")
	}
}

// collapseBlankLines trims each line's trailing spaces and drops runs of
// empty lines.
func collapseBlankLines(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		l = strings.TrimRight(l, " ")
		if l == "" && (len(out) == 0 || out[len(out)-1] == "") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
