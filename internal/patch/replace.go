package patch

import "strings"

// replaceText replaces one occurrence of e.Find. It scans content once and
// never its own output, so an empty, overlapping or self-containing find
// cannot make it loop. Occurrences are counted without overlap, left to
// right, as strings.Count does.
func replaceText(content string, e Edit) (string, error) {
	if e.Find == "" {
		return "", errorf(KindInvalidEdit, "find is empty")
	}
	n := strings.Count(content, e.Find)
	switch {
	case n == 0:
		return "", errorf(KindNoMatch, "find text does not occur in the file")
	case e.Occurrence < 0:
		return "", errorf(KindInvalidEdit, "occurrence must be 1 or more")
	case e.Occurrence == 0 && n > 1:
		return "", errorf(KindAmbiguous, "find text occurs %d times; give occurrence (1-%d) or a longer find", n, n)
	case e.Occurrence > n:
		return "", errorf(KindOccurrence, "occurrence %d asked, the find text occurs %d times", e.Occurrence, n)
	}
	k := max(e.Occurrence, 1)
	at := 0
	for i := 1; ; i++ {
		j := strings.Index(content[at:], e.Find) // found: i <= k <= n
		if i == k {
			at += j
			break
		}
		at += j + len(e.Find)
	}
	return content[:at] + e.Replace + content[at+len(e.Find):], nil
}
