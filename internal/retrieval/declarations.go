package retrieval

import (
	"path"
	"strings"
)

// Declarations: a script file named as its module's types or entry
// (types.ts, a .d.ts, index.ts) that defines no behaviour, only types,
// enums, constants and re-exports, is the module's table of contents. It
// holds the name of everything its module does, so it matches a task's
// words, and the graph walk reaches it from every file that imports its
// module; yet behaviour lives in the files it lists, and it changes only
// when a name is added. Over outline, excalidraw and dspace-angular
// (2026-12-03, 120 rows) types.ts, index.ts and .d.ts files held 133 of
// the first 20 places and 2 gold files (1.5%; the places' average 8%).
//
// At declarationPrior, measured on all eight sets: excalidraw R@20 0.838
// -> 0.846, no set moved otherwise; 0.5 measured R@10 +0.003, R@20 +0.011
// on excalidraw but lost a gold file from outline's 40 (pack recall
// 0.906 -> 0.900). Whether a file defines behaviour is read from its
// definitions: by name alone, excalidraw's data/index.ts, which defines
// the file-save functions, fell from 3rd to 8th for "add mimeTypes on
// file save" (R@5 -0.013). Every script file whose definitions are all
// types (an Angular app's *.interface.ts, outline's shared types) was
// measured too: outline R@5 -0.025, dspace-angular R@5/R@10/R@20 -0.007
// to -0.013. A variable so that a test can rank without it.
var declarationPrior = 0.7

const (
	markDeclaration uint8 = 1 << iota // interface, type alias, enum, constant
	markBehaviour                     // function, class, method and the rest
)

// symbolMark is what a definition of kind says of its file.
func symbolMark(kind string) uint8 {
	switch kind {
	case "interface", "type", "enum", "const":
		return markDeclaration
	case "route", "grid_column":
		return 0
	}
	return markBehaviour
}

// scriptDeclExts are the script files that can hold declarations only; a
// .tsx or .jsx file renders something.
var scriptDeclExts = map[string]bool{".ts": true, ".js": true, ".mjs": true, ".cjs": true, ".mts": true, ".cts": true}

// declarationFiles marks, per file, a script file named as its module's
// types or entry (types.ts, x.d.ts, index.ts) whose definitions (marks,
// by symbolMark) hold no behaviour.
func declarationFiles(files []string, marks []uint8) []bool {
	out := make([]bool, len(files))
	for i, f := range files {
		base := path.Base(f)
		ext := path.Ext(base)
		if !scriptDeclExts[ext] || marks[i]&markBehaviour != 0 {
			continue
		}
		stem := strings.TrimSuffix(base, ext)
		out[i] = stem == "index" || stem == "types" || strings.HasSuffix(base, ".d.ts")
	}
	return out
}
