package retrieval

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpc/mcpc/internal/indexer"
)

// appIndex indexes a small app laid out the way real ones are: an Angular
// feature with template, stylesheet and spec, an English and a German
// catalogue, a Go package named by a commit prefix, and tests.
func appIndex(t testing.TB) *indexer.Index {
	t.Helper()
	files := map[string]string{
		"src/app/export/export-dialog.component.ts": `import { Component } from '@angular/core';
@Component({ selector: 'ds-export-dialog', templateUrl: './export-dialog.component.html', styleUrls: ['./export-dialog.component.scss'] })
export class ExportDialogComponent { format = 'csv'; close() {} }
`,
		"src/app/export/export-dialog.component.html": `<div class="dialog"><button (click)="close()">{{ 'export.dialog.submit' | translate }}</button></div>
`,
		"src/app/export/export-dialog.component.scss":    ".dialog { padding: 4px; }\n",
		"src/app/export/export-dialog.component.spec.ts": "describe('ExportDialogComponent', () => { it('exports csv', () => {}); });\n",
		"src/app/share/share-dialog.component.ts": `import { Component } from '@angular/core';
@Component({ selector: 'ds-share-dialog', template: '<p>share</p>' })
export class ShareDialogComponent { close() {} }
`,
		"src/assets/i18n/en.json5": `{
  "export.dialog.submit": "Export data",
  "share.dialog.title": "Share document",
}
`,
		"src/assets/i18n/de.json5": `{
  "export.dialog.submit": "Export data (Daten exportieren)",
  "share.dialog.title": "Dokument teilen",
}
`,
		"modules/reverseproxy/upstreams.go": `package reverseproxy

// Upstream is one backend.
type Upstream struct{ Dial string }

func (u *Upstream) Healthy() bool { return u.Dial != "" }
`,
		"modules/fileserver/upstreams.go": `package fileserver

// Upstream here is a file source.
type Upstream struct{ Root string }

func (u *Upstream) Healthy() bool { return u.Root != "" }
`,
		"modules/reverseproxy/upstreams_test.go": "package reverseproxy\n\nfunc TestUpstreamHealthy(t *testing.T) {}\n",
	}
	return indexFiles(t, files)
}

// indexFiles writes files (path -> content) into a fresh workspace and
// indexes it.
func indexFiles(t testing.TB, files map[string]string) *indexer.Index {
	t.Helper()
	root := filepath.Join(t.TempDir(), "ws")
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "index.db")+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ix, err := indexer.Open(db, indexer.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return ix
}

func TestPromptScope(t *testing.T) {
	tests := []struct {
		note, prompt, scope, rest string
	}{
		{note: "conventional scope", prompt: "feat(editor): bucketfill cursor", scope: "editor", rest: "bucketfill cursor"},
		{note: "package prefix is a scope", prompt: "reverseproxy: validate weights", scope: "reverseproxy", rest: "validate weights"},
		{note: "bare type has no scope", prompt: "fix: Heading hash dropped", scope: "", rest: "Heading hash dropped"},
		{note: "path scope", prompt: "fix(packages/excalidraw): label offset", scope: "packages/excalidraw", rest: "label offset"},
		{note: "breaking marker", prompt: "feat(api)!: drop v1", scope: "api", rest: "drop v1"},
		{note: "capitalised prose head is no package", prompt: "Performance: short-circuit check", scope: "", rest: "short-circuit check"},
		{note: "capitalised head that is no commit type stays a task word", prompt: "Javadoc: Remove obsolete comments", scope: "", rest: "Javadoc Remove obsolete comments"},
		{note: "no prefix", prompt: "Allow resizing final table column", scope: "", rest: "Allow resizing final table column"},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			scope, rest := promptScope(tt.prompt)
			if scope != tt.scope || rest != tt.rest {
				t.Errorf("promptScope(%q) = %q, %q; want %q, %q", tt.prompt, scope, rest, tt.scope, tt.rest)
			}
		})
	}
}

func TestScopeNamesTheFolder(t *testing.T) {
	ix := appIndex(t)
	got := files(Rank(ix, Query{Prompt: "reverseproxy: upstream healthy check ignores dial"}))
	if len(got) == 0 || got[0] != "modules/reverseproxy/upstreams.go" {
		t.Errorf("rank = %v, want the reverseproxy package's file first", got)
	}
	got = files(Rank(ix, Query{Prompt: "fileserver: upstream healthy check ignores root"}))
	if len(got) == 0 || got[0] != "modules/fileserver/upstreams.go" {
		t.Errorf("rank = %v, want the fileserver package's file first", got)
	}
}

func TestTestsLeftOutUnlessAsked(t *testing.T) {
	ix := appIndex(t)
	got := files(Rank(ix, Query{Prompt: "Upstream healthy check"}))
	if slices.Contains(got, "modules/reverseproxy/upstreams_test.go") {
		t.Errorf("a task that does not ask for tests got one: %v", got)
	}
	got = files(Rank(ix, Query{Prompt: "add a test for Upstream healthy"}))
	if !slices.Contains(got, "modules/reverseproxy/upstreams_test.go") {
		t.Errorf("a task about tests should get the test: %v", got)
	}
}

func TestQuotedUIStringFindsCatalogueKeyAndTemplate(t *testing.T) {
	ix := appIndex(t)
	got := files(Rank(ix, Query{Prompt: "Rename the 'Export data' button"}))
	for _, want := range []string{"src/assets/i18n/en.json5", "src/app/export/export-dialog.component.html"} {
		if i := slices.Index(got, want); i < 0 || i > 3 {
			t.Errorf("rank = %v, want %s in the first four", got, want)
		}
	}
	if slices.Contains(got, "src/assets/i18n/de.json5") {
		t.Errorf("the German catalogue was not asked for: %v", got)
	}
	got = files(Rank(ix, Query{Prompt: "Fix the German translation of 'Export data'"}))
	if !slices.Contains(got, "src/assets/i18n/de.json5") {
		t.Errorf("a prompt naming German should get its catalogue: %v", got)
	}
}

func TestCompanionsFollowTheirComponent(t *testing.T) {
	ix := appIndex(t)
	got := files(Rank(ix, Query{Prompt: "ExportDialogComponent format csv"}))
	if len(got) == 0 || got[0] != "src/app/export/export-dialog.component.ts" {
		t.Fatalf("rank = %v, want the component first", got)
	}
	if !slices.Contains(got, "src/app/export/export-dialog.component.scss") {
		t.Errorf("the component's stylesheet should follow it: %v", got)
	}
}

func TestLocaleOf(t *testing.T) {
	tests := []struct {
		note, file, code string
		ok               bool
	}{
		{note: "angular json5", file: "src/assets/i18n/en.json5", code: "en", ok: true},
		{note: "outline folder", file: "shared/i18n/locales/de_DE/translation.json", code: "de_de", ok: true},
		{note: "java default", file: "src/main/resources/messages.properties", code: "", ok: true},
		{note: "java french", file: "src/main/resources/messages_fr.properties", code: "fr", ok: true},
		{note: "package json is no catalogue", file: "package.json"},
		{note: "code is no catalogue", file: "src/i18n/index.ts"},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			code, ok := localeOf(tt.file)
			if code != tt.code || ok != tt.ok {
				t.Errorf("localeOf(%q) = %q, %v; want %q, %v", tt.file, code, ok, tt.code, tt.ok)
			}
		})
	}
}

func TestLexemesAreAHintNotACliff(t *testing.T) {
	ix := appIndex(t)
	prompt := "Rename the export dialog close button"
	plain := files(Rank(ix, Query{Prompt: prompt}))
	words := files(Rank(ix, Query{Prompt: prompt, Lexemes: []string{"rename", "export", "dialog", "close", "button"}}))
	if !slices.Equal(plain, words) {
		t.Errorf("lexemes repeating the prompt's words changed the pack:\n%v\n%v", plain, words)
	}
	// The component's template may come first: a close button's text lives
	// there, and its path names the component as the code's does.
	idents := files(Rank(ix, Query{Prompt: prompt, Lexemes: []string{"ExportDialogComponent"}}))
	if i, other := slices.Index(idents, "src/app/export/export-dialog.component.ts"), slices.Index(idents, "src/app/share/share-dialog.component.ts"); i < 0 || i > 1 || (other >= 0 && other < i) {
		t.Errorf("an identifier lexeme should still lead to its component: %v", idents)
	}
}

// A release-notes file repeats every word of a vague subject; the source
// file that holds most of them still comes first.
func TestReleaseNotesRankBehindTheSource(t *testing.T) {
	ix := indexFiles(t, map[string]string{
		"src/site/release-notes/RELEASE-NOTES-3.6.txt": "Release 3.6.\nJavadoc: remove obsolete comments and clarify.\nFixed a NullPointerException in StringUtils.isEmpty; see the Javadoc.\n",
		"src/main/java/org/apache/commons/lang3/exception/ExceptionUtils.java": `package org.apache.commons.lang3.exception;

/** Utilities for exceptions. Javadoc clarified: obsolete comments are gone. */
public class ExceptionUtils {
    /** Gets the root cause. Javadoc: clarify; obsolete comments removed. */
    public static Throwable getRootCause(Throwable t) { return t; }
}
`,
		"src/main/java/org/apache/commons/lang3/StringUtils.java": `package org.apache.commons.lang3;

public class StringUtils {
    public static boolean isEmpty(CharSequence cs) { return cs == null || cs.length() == 0; }
}
`,
	})
	got := files(Rank(ix, Query{Prompt: "Javadoc: Remove obsolete comments and clarify"}))
	if len(got) < 2 || got[0] != "src/main/java/org/apache/commons/lang3/exception/ExceptionUtils.java" {
		t.Errorf("rank = %v, want ExceptionUtils.java before the release notes", got)
	}
}

// TestTestWordsWhenTheTaskIsAboutTests: "test" and "tests" are commit-type
// stopwords, but when the task is about tests they name what it touches:
// the test setup a "tests leak state between tests" fix changes is
// setupTests.ts (excalidraw's, from a real commit), which holds no other
// word of the prompt but "tests" in its name.
func TestTestWordsWhenTheTaskIsAboutTests(t *testing.T) {
	ix := indexFiles(t, map[string]string{
		"setupTests.ts": `import { vi } from "vitest";
// reset the mocks before each case
beforeEach(() => { vi.clearAllMocks(); });
`,
		"packages/excalidraw/pointer.ts": "export const pointerState = { leaking: false, duplication: 0 };\n",
		"packages/excalidraw/scene.ts":   "export const renderScene = () => null;\n",
	})
	got := files(Rank(ix, Query{Prompt: "fix: duplication tests pointer state leaking between tests"}))
	if !slices.Contains(got, "setupTests.ts") {
		t.Errorf("a task about tests ranks %v, want the test setup in the pack", got)
	}
	has := func(q Query, term string) bool {
		return slices.ContainsFunc(queryTerms(q), func(qt queryTerm) bool { return qt.term == term })
	}
	if has(Query{Prompt: "test: cover the export dialog"}, "test") {
		t.Error(`"test:" as a commit type became a query word`)
	}
	if !has(Query{Prompt: "Fix flaky tests of the export dialog"}, indexer.Tokenize("tests")[0]) {
		t.Error(`"tests" in a task about tests is no query word`)
	}
}
