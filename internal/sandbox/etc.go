package sandbox

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// etcFiles are the sandbox's synthetic /etc: a root and a nobody user and
// group (tools that look their user up find one) and a localhost, and
// nothing of the host's accounts.
var etcFiles = map[string]string{
	"passwd":        "root:x:0:0:root:" + Home + ":/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n",
	"group":         "root:x:0:\nnogroup:x:65534:\n",
	"hosts":         "127.0.0.1 localhost\n::1 localhost\n",
	"nsswitch.conf": "passwd: files\ngroup: files\nhosts: files dns\n",
}

// etcNames are etcFiles' names, sorted: bwrap's arguments are the same
// from run to run.
var etcNames = slices.Sorted(maps.Keys(etcFiles))

// writeEtc writes etcFiles into a new folder under os.TempDir and returns
// the folder.
func writeEtc() (string, error) {
	dir, err := os.MkdirTemp("", "mcpc-sandbox-etc-")
	if err != nil {
		return "", err
	}
	for name, content := range etcFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}
