package graph

import (
	"bufio"
	"bytes"
	"path"
	"regexp"
	"strings"
)

// ProseRule is one normative sentence of a markdown policy document.
type ProseRule struct {
	File     string
	Line     int
	Heading  string
	Text     string
	Strength string // "must" (hard words: must, never, always, do not) or "should"
	Words    []string
}

var (
	mustWords   = regexp.MustCompile(`(?i)\b(must|must not|never|always|do not|don't|shall|required)\b`)
	shouldWords = regexp.MustCompile(`(?i)\b(should|avoid|prefer|recommended)\b`)
	tagWord     = regexp.MustCompile(`\b[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b`)
	pathWord    = regexp.MustCompile(`[A-Za-z0-9_.@-]+(?:/[A-Za-z0-9_.@-]+)+`)
	listItem    = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+`)
)

// maxProseText bounds a rule's text in the graph.
const maxProseText = 400

// ParseProse returns the normative lines of a markdown document: list
// items and paragraph lines that say must/never/always/should/avoid/prefer.
// Code fences are skipped: examples are not policy.
func ParseProse(file string, src []byte) []ProseRule {
	var out []ProseRule
	heading := ""
	fenced := false
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced || t == "" {
			continue
		}
		if strings.HasPrefix(t, "#") {
			heading = strings.TrimSpace(strings.TrimLeft(t, "#"))
			continue
		}
		t = listItem.ReplaceAllString(t, "")
		strength := ""
		switch {
		case mustWords.MatchString(t):
			strength = "must"
		case shouldWords.MatchString(t):
			strength = "should"
		default:
			continue
		}
		if len(t) > maxProseText {
			t = t[:maxProseText] + "…"
		}
		words := append(tagWord.FindAllString(t, -1), pathWord.FindAllString(t, -1)...)
		out = append(out, ProseRule{File: file, Line: line, Heading: heading, Text: t, Strength: strength, Words: words})
	}
	return out
}

// proseScope is the anchor a document's rules apply to by default: a
// document at the root or under docs/ speaks for the whole repository
// (""), one elsewhere for its own folder's anchor.
func proseScope(file string, anchorOf func(string) string) string {
	dir := path.Dir(file)
	if dir == "." || dir == "docs" || strings.HasPrefix(dir, "docs/") {
		return ""
	}
	return anchorOf(file)
}
