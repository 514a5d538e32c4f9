package pathscope

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// stagedPrefix and stagedSuffix frame the names of mcpc's staged writes
// (createTemp): .mcpc-write-<16 hex>.tmp beside the file they replace.
const (
	stagedPrefix = ".mcpc-write-"
	stagedSuffix = ".tmp"
)

// IsStagedName reports whether a file name is one of mcpc's staged writes:
// never a file of the workspace's own, so never indexed or packed.
func IsStagedName(name string) bool {
	hexPart, ok := strings.CutPrefix(name, stagedPrefix)
	if hexPart, ok = strings.CutSuffix(hexPart, stagedSuffix); !ok || len(hexPart) != 16 {
		return false
	}
	return strings.Trim(hexPart, "0123456789abcdef") == ""
}

// SweepStaged removes, under root, the staged writes a process that died
// left behind: files with mcpc's staged name, regular, and not modified
// for olderThan (a live process publishes or removes its own within its
// turn's bounds). Links are never followed; .git and node_modules are not
// walked (nothing mcpc writes is there). It returns how many it removed.
func SweepStaged(root string, olderThan time.Duration) (int, error) {
	cutoff := time.Now().Add(-olderThan)
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // a folder that cannot be read holds nothing to sweep
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == ".git" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !IsStagedName(d.Name()) {
			return nil
		}
		if info, err := d.Info(); err == nil && info.ModTime().Before(cutoff) {
			if os.Remove(path) == nil {
				n++
			}
		}
		return nil
	})
	return n, err
}
