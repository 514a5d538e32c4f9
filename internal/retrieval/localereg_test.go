package retrieval

import (
	"testing"
)

// registrySources is a small Angular app translated into five languages:
// the catalogues, the default config that lists the languages the user
// may pick, a language switch that knows two of them, and a component.
var registrySources = map[string]string{
	"src/assets/i18n/en.json5": `{ "lang-switch.title": "Language", "login.button": "Log in" }`,
	"src/assets/i18n/de.json5": `{ "lang-switch.title": "Sprache", "login.button": "Anmelden" }`,
	"src/assets/i18n/fr.json5": `{ "lang-switch.title": "Langue", "login.button": "Connexion" }`,
	"src/assets/i18n/es.json5": `{ "lang-switch.title": "Idioma", "login.button": "Entrar" }`,
	"src/assets/i18n/cs.json5": `{ "lang-switch.title": "Jazyk", "login.button": "Přihlásit" }`,
	"src/config/default-app-config.ts": `import { AppConfig } from './app-config.interface';
export class DefaultAppConfig implements AppConfig {
  languages = [
    { code: 'en', label: 'English', active: true },
    { code: 'cs', label: 'Čeština', active: true },
    { code: 'de', label: 'Deutsch', active: true },
    { code: 'es', label: 'Español', active: true },
    { code: 'fr', label: 'Français', active: true },
  ];
}
`,
	"src/config/app-config.interface.ts": "export interface AppConfig { languages: { code: string; label: string; active: boolean }[]; }\n",
	"src/app/shared/lang-switch/lang-switch.component.ts": `import { Component } from '@angular/core';
import { TranslateService } from '@ngx-translate/core';
@Component({ selector: 'ds-lang-switch', templateUrl: './lang-switch.component.html' })
export class LangSwitchComponent {
  constructor(private translate: TranslateService) {}
  useLanguage(lang: string) { this.translate.use(lang === 'de' ? 'de' : 'en'); }
}
`,
	"src/app/shared/i18n/i18n-support.ts": "export function supportsI18n(lang: string): boolean { return lang.length > 0; }\n",
}

func TestNewLocaleNames(t *testing.T) {
	for _, tc := range []struct {
		prompt string
		want   []string
	}{
		{"Add traditional Chinese (zh-TW) i18n support", []string{"zh_tw", "zh"}},
		{"Fix German label of the login button", []string{"de"}},
		{"Add pt_BR translations", []string{"pt_br"}},
		{"fix to-do list and re-run the checks", nil}, // words, not locales
	} {
		got := newLocaleNames(tc.prompt)
		if len(got) != len(tc.want) {
			t.Errorf("newLocaleNames(%q) = %v, want %v", tc.prompt, got, tc.want)
			continue
		}
		for _, w := range tc.want {
			if !got[w] {
				t.Errorf("newLocaleNames(%q) = %v, want %v", tc.prompt, got, tc.want)
			}
		}
	}
}

// TestLocaleRegistryLane: adding zh-TW goes to the config that lists the
// languages, which holds no word of the prompt (without the lane it is
// not ranked); the language switch that
// knows two codes is no list. A prompt about a language the tree already
// has a catalogue of (German) is about that catalogue and its users, and
// the lane stays quiet.
func TestLocaleRegistryLane(t *testing.T) {
	ix := indexFiles(t, registrySources)
	d := derive(ix)
	files := func(m map[int32]float64) map[string]float64 {
		out := map[string]float64{}
		for doc, v := range m {
			out[d.corpus.Files[doc]] = v
		}
		return out
	}
	got := files(d.localeRegistryLane("Add traditional Chinese (zh-TW) i18n support"))
	if got["src/config/default-app-config.ts"] != 1 {
		t.Errorf("registry lane = %v, want default-app-config.ts at 1", got)
	}
	for _, f := range []string{"src/app/shared/lang-switch/lang-switch.component.ts", "src/assets/i18n/de.json5", "src/assets/i18n/en.json5"} {
		if _, ok := got[f]; ok {
			t.Errorf("registry lane holds %s: %v", f, got)
		}
	}
	if got := d.localeRegistryLane("Fix German label of the login button"); len(got) != 0 {
		t.Errorf("registry lane for a language the tree has = %v, want none", files(got))
	}
	// i18n-support.ts holds the prompt's words and keeps its place; the
	// list of languages comes next, where it was not ranked at all.
	ranked := Rank(ix, Query{Prompt: "Add traditional Chinese (zh-TW) i18n support"})
	if len(ranked) < 2 || ranked[1].File != "src/config/default-app-config.ts" {
		t.Errorf("ranking = %v, want default-app-config.ts second", ranked)
	}
}
