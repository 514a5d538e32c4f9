//go:build !unix

package pathscope

import "errors"

// Stamp: see stamp_unix.go. Where the descriptor walk is unsupported, no
// stamp is ever known, so every check falls back to reading the file.
type Stamp struct {
	Dev, Ino, Size   uint64
	MtimeNs, CtimeNs int64
}

// Known reports whether the stamp identifies a content at all.
func (s Stamp) Known() bool { return s != Stamp{} }

// ErrStale: see stamp_unix.go.
var ErrStale = errors.New("the file changed since it was read")

// Staged is unsupported here.
type Staged struct{}

func (r *Resolver) ReadFileStamped(canonical string, maxBytes int64) ([]byte, Stamp, error) {
	return nil, Stamp{}, errUnsupported
}

func (r *Resolver) StatStamp(canonical string) (Stamp, error) { return Stamp{}, errUnsupported }

func (r *Resolver) Stage(canonical string, data []byte) (*Staged, error) { return nil, errUnsupported }

func (s *Staged) Replace(expect Stamp) error { return errUnsupported }

func (s *Staged) Create() error { return errUnsupported }

func (s *Staged) Discard() {}
