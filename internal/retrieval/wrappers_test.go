package retrieval

import (
	"math"
	"slices"
	"testing"
)

// wrapperSources is a small Angular app with a theme: a search form
// component, its themed wrapper, a field parser with its date variant and
// the utilities both import, and a config interface extended by another.
var wrapperSources = map[string]string{
	"src/app/shared/search-form/search-form.component.ts": `import { Component, Input } from '@angular/core';
@Component({ selector: 'ds-base-search-form', templateUrl: './search-form.component.html' })
export class SearchFormComponent {
  @Input() scope: string;
  @Input() query: string;
  onSearch() { return { scope: this.scope, query: this.query }; }
  selectScope(scope: string) { this.scope = scope; }
}
`,
	"src/app/shared/search-form/search-form.component.html": "<form (ngSubmit)=\"onSearch()\"><button (click)=\"selectScope(scope)\">scope</button></form>\n",
	"src/app/shared/search-form/themed-search-form.component.ts": `import { Component, Input } from '@angular/core';
import { ThemedComponent } from '../theme-support/themed.component';
import { SearchFormComponent } from './search-form.component';
@Component({ selector: 'ds-search-form', template: '' })
export class ThemedSearchFormComponent extends ThemedComponent<SearchFormComponent> {
  @Input() scope: string;
  @Input() query: string;
  protected getComponentName(): string { return 'SearchFormComponent'; }
  protected importUnthemedComponent(): Promise<any> { return import('./search-form.component'); }
}
`,
	"src/app/shared/theme-support/themed.component.ts": "export abstract class ThemedComponent<T> { protected abstract getComponentName(): string; }\n",
	"src/app/shared/form/parsers/field-parser.ts": `import { setLayout } from './parser.utils';
export abstract class FieldParser {
  parse(value: string) { return setLayout(value.trim()); }
}
`,
	"src/app/shared/form/parsers/date-field-parser.ts": `import { FieldParser } from './field-parser';
export class DateFieldParser extends FieldParser {
  parseDate(value: string) { return new Date(this.parse(value)); }
}
`,
	"src/app/shared/form/parsers/parser.utils.ts": "export function setLayout(value: string) { return value; }\n",
	"src/config/config.interface.ts":              "export interface Config { [key: string]: any; }\n",
	"src/config/submission-config.interface.ts":   "import { Config } from './config.interface';\nexport interface SubmissionConfig extends Config { placeholderOnDate: boolean; }\n",
}

func TestWrapperFiles(t *testing.T) {
	ix := indexFiles(t, wrapperSources)
	d := derive(ix)
	wraps := d.wrapperFiles(ix)
	for _, tc := range []struct {
		note, file string
		head       []string // nil: no wrapper
	}{
		{"a theme's wrapper imports the component it is named for", "src/app/shared/search-form/themed-search-form.component.ts", []string{"themed"}},
		{"a variant imports the file it is named for", "src/app/shared/form/parsers/date-field-parser.ts", []string{"date"}},
		{"the component itself", "src/app/shared/search-form/search-form.component.ts", nil},
		{"a file importing utilities of another kind (parser.utils.ts) wraps nothing", "src/app/shared/form/parsers/field-parser.ts", nil},
		{"an interface extending an interface wraps no behaviour", "src/config/submission-config.interface.ts", nil},
	} {
		t.Run(tc.note, func(t *testing.T) {
			doc, ok := d.corpus.Doc(tc.file)
			if !ok {
				t.Fatalf("%s not indexed", tc.file)
			}
			if got := wraps[doc]; !slices.Equal(got, tc.head) {
				t.Errorf("wrapperFiles[%s] = %v, want %v", tc.file, got, tc.head)
			}
		})
	}
}

func TestNameHead(t *testing.T) {
	for _, tc := range []struct {
		f, g string
		head []string
		ok   bool
	}{
		{"themed-search-sidebar", "search-sidebar", []string{"themed"}, true},
		{"ServerAuthService", "AuthService", []string{"server"}, true},
		{"ImportJSONTask", "ImportTask", nil, false}, // the word is inside
		{"search-sidebar", "search-sidebar", nil, false},
		{"sidebar", "search-sidebar", nil, false},
	} {
		head, ok := nameHead(tc.f, tc.g)
		if ok != tc.ok || !slices.Equal(head, tc.head) {
			t.Errorf("nameHead(%q, %q) = %v, %v; want %v, %v", tc.f, tc.g, head, ok, tc.head, tc.ok)
		}
	}
}

// TestWrappersRankBehindWhatTheyWrap: "new funnel icon in search scope"
// is about the search form; its themed wrapper repeats the words (its
// name, its inputs) and keeps its place at wrapperPrior of its score.
// A prompt that says the wrapper's own word ("themed") is about the
// wrapper, which keeps its whole score.
func TestWrappersRankBehindWhatTheyWrap(t *testing.T) {
	ix := indexFiles(t, wrapperSources)
	scores := func(prompt string, prior float64) map[string]float64 {
		saved := wrapperPrior
		wrapperPrior = prior
		defer func() { wrapperPrior = saved }()
		out := map[string]float64{}
		for _, r := range Rank(ix, Query{Prompt: prompt}) {
			out[r.File] = r.Score
		}
		return out
	}
	const (
		wrapper = "src/app/shared/search-form/themed-search-form.component.ts"
		code    = "src/app/shared/search-form/search-form.component.ts"
	)
	for _, tc := range []struct {
		note, prompt, file string
		factor             float64
	}{
		{"the wrapper", "new funnel icon in search form scope", wrapper, wrapperPrior},
		{"the component", "new funnel icon in search form scope", code, 1},
		{"the wrapper, its word said", "themed search form loses its scope", wrapper, 1},
	} {
		t.Run(tc.note, func(t *testing.T) {
			whole, scaled := scores(tc.prompt, 1), scores(tc.prompt, wrapperPrior)
			w, ok := whole[tc.file]
			if !ok {
				t.Fatalf("%s not ranked: %v", tc.file, whole)
			}
			if want := w * tc.factor; math.Abs(scaled[tc.file]-want) > 0.002 {
				t.Errorf("%s scored %v, want %v", tc.file, scaled[tc.file], want)
			}
		})
	}
	if s := scores("new funnel icon in search form scope", wrapperPrior); s[code] <= s[wrapper] {
		t.Errorf("scores = %v, want the component above its wrapper", s)
	}
}
