package controller

import (
	"crypto/sha256"
	"encoding/hex"
	"os/exec"
	"strings"
)

// repoSnapshotID is the git HEAD with a "+dirty" marker when the tree has
// changes, or without git a hash of the indexed file list.
func repoSnapshotID(root string, ix CodeIndex) string {
	if head := gitHead(root); head != "unknown" {
		out, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output()
		if err == nil && len(strings.TrimSpace(string(out))) > 0 {
			return head + "+dirty"
		}
		return head
	}
	h := sha256.New()
	if lister, ok := ix.(interface{ Files() []string }); ok {
		for _, f := range lister.Files() {
			h.Write([]byte(f + "\n"))
		}
	}
	return "tree:" + hex.EncodeToString(h.Sum(nil))[:16]
}

// gitHead is `git rev-parse HEAD`, or "unknown" outside a repository.
func gitHead(root string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}
