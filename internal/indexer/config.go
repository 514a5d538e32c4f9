package indexer

import (
	"encoding/json"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// projectConfig is what import resolution needs from the workspace's own
// configuration: tsconfig/jsconfig path aliases and baseUrl. (Go module
// paths come from go.mod files in the index, see goModule.)
type projectConfig struct {
	aliases []pathAlias
	baseURL string
}

type pathAlias struct {
	pattern string // "@app/*" or an exact specifier
	targets []string
}

func (a pathAlias) match(spec string) (string, bool) {
	if prefix, ok := strings.CutSuffix(a.pattern, "*"); ok {
		if strings.HasPrefix(spec, prefix) {
			return spec[len(prefix):], true
		}
		return "", false
	}
	return "", spec == a.pattern
}

func loadProjectConfig(root string) projectConfig {
	var cfg projectConfig
	for _, name := range []string{"tsconfig.base.json", "tsconfig.json", "jsconfig.json"} {
		data, ok := readSmallFile(filepath.Join(root, name))
		if !ok {
			continue
		}
		var tc struct {
			CompilerOptions struct {
				BaseURL string              `json:"baseUrl"`
				Paths   map[string][]string `json:"paths"`
			} `json:"compilerOptions"`
		}
		if json.Unmarshal(stripJSONC(data), &tc) != nil {
			continue
		}
		base := path.Clean(strings.TrimPrefix(tc.CompilerOptions.BaseURL, "./"))
		if tc.CompilerOptions.BaseURL != "" && cfg.baseURL == "" && base != "." {
			cfg.baseURL = base
		}
		for pattern, targets := range tc.CompilerOptions.Paths {
			a := pathAlias{pattern: pattern}
			for _, t := range targets {
				t = path.Join(base, t)
				if strings.HasPrefix(t, "node_modules/") || strings.HasPrefix(t, "../") {
					continue
				}
				a.targets = append(a.targets, t)
			}
			if len(a.targets) > 0 {
				cfg.aliases = append(cfg.aliases, a)
			}
		}
	}
	// Longest pattern first, as TypeScript prefers the most specific match.
	sort.SliceStable(cfg.aliases, func(i, j int) bool { return len(cfg.aliases[i].pattern) > len(cfg.aliases[j].pattern) })
	return cfg
}

// stripJSONC removes comments and trailing commas, which tsconfig allows.
func stripJSONC(src []byte) []byte {
	out := make([]byte, 0, len(src))
	inString := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inString {
			out = append(out, c)
			if c == '\\' && i+1 < len(src) {
				i++
				out = append(out, src[i])
			} else if c == '"' {
				inString = false
			}
			continue
		}
		switch {
		case c == '"':
			inString = true
			out = append(out, c)
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i += 2
			for i+1 < len(src) && !(src[i] == '*' && src[i+1] == '/') {
				i++
			}
			i++
		case c == ',':
			j := i + 1
			for j < len(src) && (src[j] == ' ' || src[j] == '\n' || src[j] == '\r' || src[j] == '\t') {
				j++
			}
			if j < len(src) && (src[j] == '}' || src[j] == ']') {
				continue
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
