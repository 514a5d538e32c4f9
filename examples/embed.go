// Package examples embeds the example workspaces that `mcpc demo` runs a
// scripted agent session against, and that tests and benchmarks copy.
package examples

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
)

// FS holds angular-shop/, dot folders (.ai/config) included.
//
//go:embed all:angular-shop
var FS embed.FS

// CopyAngularShop writes the angular-shop example into dir.
func CopyAngularShop(dir string) error {
	return fs.WalkDir(FS, "angular-shop", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("angular-shop", path)
		dst := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := FS.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
}
