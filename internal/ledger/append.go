package ledger

import (
	"errors"
	"io/fs"
)

// Path is the trace ledger, relative to the worktree, and LockPath the
// file whose lock serialises appends to it across processes (the server
// and every `mcpc hook` process append to the same ledger).
const (
	Path     = ".orchestration/agent_trace.jsonl"
	LockPath = ".ai/tmp/ledger.lock"
)

// Files is what Append needs of the workspace: pathscope.Resolver, which
// never follows a link (a repository could commit the ledger as a link to
// a shell start-up file, and records hold agent text).
type Files interface {
	Lock(canonical string) (unlock func(), err error)
	ReadTail(canonical string, n int64) ([]byte, error)
	AppendFile(canonical string, data []byte, mkdirParents bool) error
}

// Append seals rec to the ledger's last record and appends it, under
// LockPath's lock so the read of the last record and the append are one
// step for every writer. It returns the new head, which the caller records
// in the store as the anchor `mcpc trace verify` checks the file against.
func Append(files Files, rec Record) (Head, error) {
	unlock, err := files.Lock(LockPath)
	if err != nil {
		return Head{}, err
	}
	defer unlock()
	head, torn, err := tailHead(files)
	if err != nil {
		return Head{}, err
	}
	line, next, err := Seal(rec, head)
	if err != nil {
		return Head{}, err
	}
	if torn {
		// The last write was cut short: the record starts a line of its
		// own, and verify reports the torn one.
		line = append([]byte{'\n'}, line...)
	}
	if err := files.AppendFile(Path, line, true); err != nil {
		return Head{}, err
	}
	return next, nil
}

// tailHead reads the ledger's last record from the end of the file,
// widening the window until it holds a whole line; torn reports a file
// that does not end with a newline.
func tailHead(files Files) (head Head, torn bool, err error) {
	for n := int64(4 << 10); ; n *= 4 {
		tail, err := files.ReadTail(Path, n)
		if errors.Is(err, fs.ErrNotExist) {
			return Head{Hash: Genesis}, false, nil
		}
		if err != nil {
			return Head{}, false, err
		}
		whole := int64(len(tail)) < n // the window reached the file's start
		if !whole && !hasLineStart(tail) {
			if n > 64<<20 {
				return Head{}, false, errors.New("the trace ledger's last line is over 64 MiB")
			}
			continue
		}
		torn = len(tail) > 0 && tail[len(tail)-1] != '\n'
		head, err = LastHead(tail)
		return head, torn, err
	}
}

// hasLineStart reports whether tail holds a newline before its last line.
func hasLineStart(tail []byte) bool {
	for i := len(tail) - 2; i >= 0; i-- {
		if tail[i] == '\n' {
			return true
		}
	}
	return false
}
