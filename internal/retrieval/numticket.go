package retrieval

import "regexp"

// numericTicketHead is a work item's number at the head of a subject:
// "140390: Add class level TSdoc". Trackers that number their tickets
// without a project code (Atmire's, many in-house ones) have their
// developers open every commit of the ticket with its number and a colon,
// as Jira users open it with DURACOM-347; the colon and at least four
// digits tell it from a count or a version ("3 fixes", "v2: …").
var numericTicketHead = regexp.MustCompile(`^\s*\[?(\d{4,})\]?:\s`)

// numericTicket returns the ticket number s opens with, or "". Only the
// head counts: a number further in ("fixes #5487", "(#3214)") is a pull
// request or an issue the commit closes, a name the next commit of the
// work does not repeat.
func numericTicket(s string) string {
	if m := numericTicketHead.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}
