package retrieval

import (
	"path"
	"regexp"
	"strings"
)

// stylesheetPrior scales a stylesheet's score unless the task speaks of
// how things look. A component's stylesheet sits beside its code under the
// same name (item.component.scss, EyeDropper.scss) and so carries every
// word of its path, and the companion lane hands it a share of its code's
// score; yet a change to what a component does rarely touches how it is
// styled, and a task that does says so in the words of CSS ("contrast",
// "height and scroll", "overflowing viewport", "fonts"). Over the seven
// sets (2026-12-03) stylesheets held 158 of the first 20 places and 3
// gold files (1.9%), all on prompts with such words. At 0.5 every gold
// file that moved moved up: dspace-angular R@5 0.502 -> 0.515,
// excalidraw 0.599 -> 0.624, healthchecks R@5 0.602 -> 0.627 and R@10
// 0.715 -> 0.740; 0.25 measured the same at R@5-R@20. A variable so that
// a test can rank without it.
var stylesheetPrior = 0.5

var stylesheetExts = map[string]bool{".css": true, ".scss": true, ".sass": true, ".less": true, ".styl": true, ".pcss": true}

// isStylesheet reports a CSS file or one of its preprocessors' sources.
func isStylesheet(file string) bool { return stylesheetExts[strings.ToLower(path.Ext(file))] }

// styleWords are the words of a task about looks: the stylesheet's own
// names, CSS's properties and the layout words people use for them.
var styleWords = regexp.MustCompile(`(?i)\b(css|scss|sass|less|stylesheets?|styles?|styling|styled|colou?rs?|contrast|fonts?|heights?|widths?|margins?|padding|spacing|borders?|scroll\w*|overflow\w*|viewport|layout|align\w*|responsive|mobile|dark|light|themes?|hover|animations?|z-index|position\w*|sizes?|visual\w*|look|looks|appearance|icons?|flex\w*|grid)\b`)

// asksForStyle reports whether the task is about how things look.
func asksForStyle(q Query) bool {
	return styleWords.MatchString(q.Prompt + " " + strings.Join(q.Lexemes, " "))
}
