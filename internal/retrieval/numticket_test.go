package retrieval

import (
	"testing"
)

func TestNumericTicket(t *testing.T) {
	for _, tc := range []struct {
		note, subject, want string
	}{
		{note: "a number and a colon open the subject", subject: "140390: Add class level TSdoc", want: "140390"},
		{note: "bracketed", subject: "[140390]: Fix caching issues", want: "140390"},
		{note: "a pull request number in running text", subject: "fix: improve contrast on credits text (fixes #5487)"},
		{note: "an issue closed at the head", subject: "Fix #12303: Evaluating IIIF metadata values"},
		{note: "a count is no ticket", subject: "3: small fixes"},
		{note: "a number with no colon", subject: "140390 Add class level TSdoc"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := numericTicket(tc.subject); got != tc.want {
				t.Errorf("numericTicket(%q) = %q, want %q", tc.subject, got, tc.want)
			}
		})
	}
}

// TestNumericTicketLane: "140390: Add class level TSdoc" documents what
// the ticket's earlier commit changed; its words name none of it.
func TestNumericTicketLane(t *testing.T) {
	history := []Commit{
		{Subject: "Bump axe-core from 4.11.1 to 4.11.2", Files: []string{"package.json"}},
		{Subject: "140390: Fix caching / stale issues with replacement button", Files: []string{
			"src/app/bitstream-page/replace-bitstream-page/replace-bitstream-page.component.ts",
			"src/app/bitstream-page/replace-bitstream-page/replace-bitstream-page.guard.ts"}},
		{Subject: "1403901: another ticket sharing a prefix", Files: []string{"src/app/app.menus.ts"}},
		{Subject: "Update 140390 references", Files: []string{"src/app/app.component.ts"}},
	}
	for _, tc := range []struct {
		note, prompt string
		want         []string
	}{
		{note: "the ticket's commits, matched at their head and whole", prompt: "140390: Add class level TSdoc", want: []string{
			"src/app/bitstream-page/replace-bitstream-page/replace-bitstream-page.component.ts",
			"src/app/bitstream-page/replace-bitstream-page/replace-bitstream-page.guard.ts"}},
		{note: "a number inside the prompt is no ticket", prompt: "Update the 140390 notes"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			got := ticketLane(tc.prompt, history, nil)
			if len(got) != len(tc.want) {
				t.Fatalf("ticketLane = %v, want %v", got, tc.want)
			}
			for _, f := range tc.want {
				if got[f] != 1 {
					t.Errorf("ticketLane[%s] = %v, want 1", f, got[f])
				}
			}
		})
	}
	if n := HistoryNeeded("140390: Add class level TSdoc"); n < ticketDepth {
		t.Errorf("HistoryNeeded = %d, want the ticket lane's depth %d", n, ticketDepth)
	}
}

// TestTicketOutranksVagueWords: "[DURACOM-317] improve labels" finishes the
// ticket's audit table, whose text never says "labels"; the metadata field
// wrapper has it in its text and as a field name. The ticket names the work; one
// vague word found by one lane does not outweigh it (at the ticket lane's
// old weight, the phrase lane's 1.0, it did).
func TestTicketOutranksVagueWords(t *testing.T) {
	ix := indexFiles(t, map[string]string{
		"src/app/audit-page/audit-table/audit-table.component.ts": `import { Component, Input } from '@angular/core';

@Component({ selector: 'ds-audit-table', templateUrl: './audit-table.component.html' })
export class AuditTableComponent {
  @Input() audits: Audit[];
  dateFormat = 'yyyy-MM-dd HH:mm:ss';
}
`,
		"src/app/shared/metadata-field-wrapper/metadata-field-wrapper.component.ts": `import { Component, Input } from '@angular/core';

// Wraps a metadata field with its labels: the labels come first, then
// the values; hide the labels when there are no values.
@Component({ selector: 'ds-metadata-field-wrapper', templateUrl: './metadata-field-wrapper.component.html' })
export class MetadataFieldWrapperComponent {
  @Input() hideIfNoTextContent = true;
  @Input() labels: string[]; // shown above the values
}
`,
		"src/app/shared/ds-select/ds-select.component.ts": `import { Component, Input } from '@angular/core';

@Component({ selector: 'ds-select', templateUrl: './ds-select.component.html' })
export class DsSelectComponent {
  @Input() toggleText: string; // one of the labels
  @Input() disabled = false;
}
`,
	})
	history := []Commit{
		{Subject: "[DURACOM-317] audit table columns", Files: []string{"src/app/audit-page/audit-table/audit-table.component.ts"}},
		{Subject: "[DURACOM-317] audit table columns", Files: []string{"src/app/audit-page/audit-table/audit-table.component.ts",
			"src/app/shared/ds-select/ds-select.component.ts"}},
	}
	prompt := "[DURACOM-317] improve labels"
	boost := SideLanes(ix, SideInputs{Prompt: prompt, History: history})
	got := files(Rank(ix, Query{Prompt: prompt, Boost: boost, History: history}))
	if len(got) == 0 || got[0] != "src/app/audit-page/audit-table/audit-table.component.ts" {
		t.Errorf("ranks %v, want the ticket's file first", got)
	}
}
