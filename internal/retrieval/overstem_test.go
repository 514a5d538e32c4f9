package retrieval

import (
	"slices"
	"testing"
)

func TestOverstemmed(t *testing.T) {
	tests := []struct {
		note, text string
		want       []string
	}{
		{note: "settings is cut to the stopword set", text: "Update settings to use ImproperlyConfigured", want: []string{"set"}},
		{note: "an inflection of a stopword stays one", text: "fixing updating handled handles supporting"},
		{note: "setting is set and an inflection", text: "Add the allowedHosts setting"},
		{note: "the stopword itself", text: "set the flag"},
		{note: "a compound's parts are judged as parts", text: "getSettings"},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			var got []string
			for s := range overstemmed(tt.text) {
				got = append(got, s)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("overstemmed(%q) = %v, want %v", tt.text, got, tt.want)
			}
		})
	}
}

// TestOverstemmedWordNamesItsFile: "settings" stems to the stopword "set";
// dropped, the prompt lost the word that names hc/settings.py and the
// file holding the exception's name ranked first.
func TestOverstemmedWordNamesItsFile(t *testing.T) {
	ix := indexFiles(t, map[string]string{
		"hc/settings.py": `import os

SECRET_KEY = os.getenv("SECRET_KEY", "---")
DEBUG = os.getenv("DEBUG", "False") == "True"
ADMINS = [("Admin", os.getenv("ADMINS", ""))]
EMAIL_HOST = os.getenv("EMAIL_HOST", "")
if not EMAIL_HOST:
    raise Exception("EMAIL_HOST is required")
`,
		"hc/lib/s3.py": `from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


def client():
    if not settings.S3_BUCKET:
        raise ImproperlyConfigured("S3_BUCKET is not set")
    return make_client(settings.S3_ENDPOINT)
`,
		"hc/api/views.py": `from django.conf import settings


def status(request):
    return {"ok": True, "debug": settings.DEBUG}
`,
	})
	got := files(Rank(ix, Query{Prompt: "Update settings to use the more specific ImproperlyConfigured exception"}))
	if at := slices.Index(got, "hc/settings.py"); at < 0 || at > 1 {
		t.Errorf("rank = %v, want hc/settings.py among the first two", got)
	}
	terms := queryTerms(Query{Prompt: "Update settings to use the more specific ImproperlyConfigured exception"})
	if !slices.ContainsFunc(terms, func(q queryTerm) bool { return q.term == "set" }) {
		t.Errorf("query terms %v lack the stem of settings", terms)
	}
}
