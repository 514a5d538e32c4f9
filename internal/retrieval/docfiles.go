package retrieval

import (
	"path"
	"strings"
)

// isDocSource reports whether a file is documentation by its ecosystem's
// layout though its extension is code's: Java's package-info.java holds a
// package's Javadoc and annotations, no code; Maven's src/site holds the
// project's site (xdoc pages, generated reports, release notes).
func isDocSource(file string) bool {
	if path.Base(file) == "package-info.java" {
		return true
	}
	return strings.HasPrefix(file, "src/site/") || strings.Contains(file, "/src/site/")
}
