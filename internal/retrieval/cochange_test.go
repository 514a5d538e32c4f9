package retrieval

import (
	"slices"
	"testing"
)

// coChangeApp is a small Django project laid out as real ones are: an
// app's views, URL patterns and forms beside each other, a second app,
// and an Angular component split into code, template and stylesheet.
func coChangeApp(t testing.TB) map[string]string {
	t.Helper()
	return map[string]string{
		"hc/integrations/email/views.py": `from django.shortcuts import render


def add_email(request):
    """The onboarding page for email notifications."""
    return render(request, "add_email.html")
`,
		"hc/integrations/email/urls.py": `from django.urls import path

from . import views

urlpatterns = [path("add/", views.add_email, name="hc-add-email")]
`,
		"hc/integrations/email/forms.py": `from django import forms


class EmailForm(forms.Form):
    value = forms.EmailField(max_length=100)
`,
		"hc/accounts/views.py": `def login(request):
    """Sign in with a password or a link sent by email."""
    return None
`,
		"hc/accounts/urls.py": `from django.urls import path

urlpatterns = [path("login/", login)]
`,
		"src/app/audit-table/audit-table.component.ts": `import { Component } from '@angular/core';
@Component({ selector: 'ds-audit-table', templateUrl: './audit-table.component.html' })
export class AuditTableComponent { entries = []; }
`,
		"src/app/audit-table/audit-table.component.html": `<table><tr *ngFor="let e of entries"><td>{{ 'audit.overview.table.entity' | translate }}</td></tr></table>
`,
		"src/app/other/other.component.ts": `export class OtherComponent {}
`,
	}
}

// TestCoChangeLane: files that changed with the best hits in past commits
// join the pack although they hold none of the task's words (the app's
// urls.py beside the views the task moves; an Angular component's template
// beside its code); a sweep touching every file is no evidence, nor is a
// pair seen together once; with no history the lane adds nothing.
func TestCoChangeLane(t *testing.T) {
	ix := indexFiles(t, coChangeApp(t))
	sweep := Commit{Subject: "Switch to f-strings", Files: []string{
		"hc/integrations/email/views.py", "hc/accounts/urls.py", "hc/accounts/views.py", "src/app/other/other.component.ts",
		"a1.py", "a2.py", "a3.py", "a4.py", "a5.py", "a6.py", "a7.py", "a8.py", "a9.py",
	}}
	history := []Commit{
		sweep,
		{Subject: "Add the email onboarding page", Files: []string{"hc/integrations/email/views.py", "hc/integrations/email/urls.py"}},
		{Subject: "Validate the address", Files: []string{"hc/integrations/email/views.py", "hc/integrations/email/forms.py", "hc/integrations/email/urls.py"}},
		{Subject: "Show who changed what", Files: []string{"src/app/audit-table/audit-table.component.ts", "src/app/audit-table/audit-table.component.html"}},
		{Subject: "Label the audit columns", Files: []string{"src/app/audit-table/audit-table.component.ts", "src/app/audit-table/audit-table.component.html"}},
		{Subject: "Keep the address on errors", Files: []string{"hc/integrations/email/views.py", "hc/integrations/email/forms.py"}},
		// Seen together once: a coincidence as often as a coupling.
		{Subject: "Share the login link", Files: []string{"hc/integrations/email/views.py", "hc/accounts/urls.py"}},
	}
	for _, tc := range []struct {
		note, prompt string
		history      []Commit
		want, not    []string // files the co-change lane lifts, and files it must not
	}{
		{"a view's URL patterns and form come with it", "Move email onboarding views to integrations", history,
			[]string{"hc/integrations/email/urls.py", "hc/integrations/email/forms.py"}, []string{"hc/accounts/urls.py"}},
		{"a component's template comes with its code", "Show the AuditTableComponent entries", history,
			[]string{"src/app/audit-table/audit-table.component.html"}, []string{"src/app/other/other.component.ts"}},
		{"no history, no partners", "Move email onboarding views to integrations", nil,
			nil, []string{"hc/integrations/email/urls.py", "hc/integrations/email/forms.py", "hc/accounts/urls.py"}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			lanes := map[string][]string{}
			for _, r := range Rank(ix, Query{Prompt: tc.prompt, History: tc.history}) {
				lanes[r.File] = r.Lanes
			}
			for _, f := range tc.want {
				if !slices.Contains(lanes[f], "cochange") {
					t.Errorf("Rank(%q): %s has lanes %v, want cochange", tc.prompt, f, lanes[f])
				}
			}
			for _, f := range tc.not {
				if slices.Contains(lanes[f], "cochange") {
					t.Errorf("Rank(%q): %s has lanes %v, want no cochange", tc.prompt, f, lanes[f])
				}
			}
		})
	}
	// The partner the history names outranks its look-alike in another app.
	got := files(Rank(ix, Query{Prompt: "Move email onboarding views to integrations", History: history}))
	if i, j := slices.Index(got, "hc/integrations/email/urls.py"), slices.Index(got, "hc/accounts/urls.py"); i < 0 || (j >= 0 && j < i) {
		t.Errorf("Rank = %v, want the email app's urls.py before the accounts app's", got)
	}
}

// TestShortPackFilledFromChurn: a vague subject finds one file by its
// words; the rest of the pack is the files the history changed most
// (commons-lang's StringUtils.java, changed by most of its commits), after
// the file a lane found, in churn order. A file changed once, a test and
// a sweep's files stay out; a full pack is left as it is.
func TestShortPackFilledFromChurn(t *testing.T) {
	lang := "src/main/java/org/apache/commons/lang3/"
	ix := indexFiles(t, map[string]string{
		lang + "StringUtils.java":                                     "package org.apache.commons.lang3;\n\npublic class StringUtils { public static boolean isEmpty(CharSequence cs) { return cs == null; } }\n",
		lang + "ArrayUtils.java":                                      "package org.apache.commons.lang3;\n\npublic class ArrayUtils { public static int indexOf(int[] a, int v) { return -1; } }\n",
		lang + "CharUtils.java":                                       "package org.apache.commons.lang3;\n\npublic class CharUtils { public static boolean isAscii(char ch) { return ch < 128; } }\n",
		lang + "text/WordUtils.java":                                  "package org.apache.commons.lang3.text;\n\n/** Spelling of words: capitalize, wrap. */\npublic class WordUtils { public static String wrap(String s) { return s; } }\n",
		"src/test/java/org/apache/commons/lang3/StringUtilsTest.java": "package org.apache.commons.lang3;\n\nclass StringUtilsTest {}\n",
	})
	sweep := Commit{Subject: "Bump copyright year", Files: make([]string, 0, maxCoChangeFiles+1)}
	for i := 0; i <= maxCoChangeFiles; i++ {
		sweep.Files = append(sweep.Files, lang+"CharUtils.java")
	}
	history := []Commit{
		{Subject: "Javadoc", Files: []string{lang + "StringUtils.java", "src/test/java/org/apache/commons/lang3/StringUtilsTest.java"}},
		{Subject: "Better names", Files: []string{lang + "ArrayUtils.java", lang + "StringUtils.java"}},
		{Subject: "Refactor", Files: []string{lang + "StringUtils.java", "src/test/java/org/apache/commons/lang3/StringUtilsTest.java"}},
		{Subject: "Inline", Files: []string{lang + "ArrayUtils.java"}},
		{Subject: "Typo", Files: []string{lang + "CharUtils.java"}},
		sweep, sweep,
	}
	got := Rank(ix, Query{Prompt: "fix spelling", History: history})
	want := []string{lang + "text/WordUtils.java", lang + "StringUtils.java", lang + "ArrayUtils.java"}
	if !slices.Equal(files(got), want) {
		t.Fatalf("rank = %v, want %v", files(got), want)
	}
	if !slices.Equal(got[1].Lanes, []string{"churn"}) || got[1].Score >= got[0].Score || got[2].Score > got[1].Score {
		t.Errorf("the churn files should follow the lane's file, in churn order: %+v", got)
	}
	if full := Rank(ix, Query{Prompt: "fix spelling", History: history, Limit: 1}); !slices.Equal(files(full), want[:1]) {
		t.Errorf("a full pack got %v, want it as the lanes made it", files(full))
	}
}
