package sandbox

import (
	"maps"
	"os"
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

// etcPipes returns, per etcNames entry, a pipe's read end holding the
// file's content, for bwrap's --ro-bind-data: nothing is written to disk,
// so a killed mcpc leaves nothing behind.
func etcPipes() ([]*os.File, error) {
	var files []*os.File
	for _, name := range etcNames {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(files)
			return nil, err
		}
		files = append(files, r)
		// A few hundred bytes: the pipe's buffer holds them all, so the
		// write never waits for bwrap to read.
		_, err = w.WriteString(etcFiles[name])
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			closeAll(files)
			return nil, err
		}
	}
	return files, nil
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}
