package retrieval

import (
	"slices"
	"testing"

	"github.com/mcpc/mcpc/internal/indexer"
)

// djangoIndex is a small Django project: settings, an integration per
// folder whose views do not repeat the folder's name, and a mailer that
// reads settings.ADMINS.
func djangoIndex(t testing.TB) *derivedIndex {
	t.Helper()
	ix := indexFiles(t, map[string]string{
		"hc/settings.py": `import os

DEBUG = os.getenv("DEBUG") == "True"
ADMINS = [("Ops", "ops@example.org")]
SITE_NAME = "Mychecks"
`,
		"hc/lib/emails.py": `from django.conf import settings


def alert_admins(subject, body):
    # admins get the alert in the configured format
    recipients = [addr for _, addr in settings.ADMINS]
    text = "{}: {}".format(subject, body)
    return recipients, text, format_admins(settings.ADMINS)


def format_admins(admins):
    return ", ".join(name for name, _ in admins)
`,
		"hc/lib/lib.py": "# helpers shared by the integrations\n",
		"hc/accounts/admin.py": `from django.contrib import admin


class AdminsFormat(admin.ModelAdmin):
    list_display = ("email", "format")
`,
		"hc/integrations/email/views.py": `from django.shortcuts import render


def add(request, code):
    """Onboarding: the address form for a new channel."""
    return render(request, "add_address.html", {"code": code})
`,
		"hc/integrations/apprise/views.py": `from django.shortcuts import render


def add(request, code):
    """Onboarding: the URL form for a new channel."""
    return render(request, "add_apprise.html", {"code": code})
`,
	})
	return &derivedIndex{ix: ix, d: derive(ix)}
}

func TestQualifierNamesTheDefiningFile(t *testing.T) {
	di := djangoIndex(t)
	tests := []struct {
		note, prompt, want, user string
	}{
		{note: "python module attribute", prompt: "Update the settings.ADMINS format", want: "hc/settings.py", user: "hc/lib/emails.py"},
		{note: "a package path names no file", prompt: "Move email onboarding views to hc.integrations", want: ""},
		{note: "the innermost qualifier names the module", prompt: "Read hc.settings.ADMINS once", want: "hc/settings.py", user: "hc/lib/emails.py"},
		{note: "a config key's product name names nothing", prompt: "Evaluate lib.iiif.enabled correctly", want: ""},
		{note: "a file name is no qualified name", prompt: "Load lib.settings.py first", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			lane := di.d.qualifierLane(tt.prompt)
			if tt.want == "" {
				if len(lane) != 0 {
					t.Errorf("qualifierLane(%q) = %v, want nothing", tt.prompt, lane)
				}
				return
			}
			doc, _ := di.d.corpus.Doc(tt.want)
			if lane[doc] != 1 || len(lane) != 1 {
				t.Errorf("qualifierLane(%q) = %v, want only %s", tt.prompt, lane, tt.want)
			}
			// The file that reads the name says it too; the one defining it
			// comes first.
			got := files(Rank(di.ix, Query{Prompt: tt.prompt}))
			if i, j := slices.Index(got, tt.want), slices.Index(got, tt.user); i < 0 || (j >= 0 && j < i) {
				t.Errorf("rank = %v, want %s before %s", got, tt.want, tt.user)
			}
		})
	}
}

func TestLexicalCountsThePathAsContent(t *testing.T) {
	di := djangoIndex(t)
	terms := queryTerms(Query{Prompt: "Move email onboarding views to hc.integrations"})
	scores := di.d.lexical(terms)
	email, _ := di.d.corpus.Doc("hc/integrations/email/views.py")
	apprise, _ := di.d.corpus.Doc("hc/integrations/apprise/views.py")
	if scores[email] <= scores[apprise] {
		t.Errorf("lexical: email views %.3f, apprise views %.3f; the folder named in the prompt should count", scores[email], scores[apprise])
	}
}

// derivedIndex pairs an index with its derived lookups for lane tests.
type derivedIndex struct {
	ix *indexer.Index
	d  *derived
}
