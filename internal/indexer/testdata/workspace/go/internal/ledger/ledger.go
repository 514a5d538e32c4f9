// Package ledger books invoice payments.
package ledger

import (
	"errors"
	"fmt"
)

// ErrClosed is returned for postings to a closed period.
var ErrClosed = errors.New("ledger: period closed")

// MaxEntries bounds one posting batch.
const MaxEntries = 500

// Entry is one ledger line.
type Entry struct {
	Account string
	Cents   int64
}

// Poster books entries.
type Poster interface {
	Post(entries []Entry) error
}

// Ledger keeps entries in memory.
type Ledger struct {
	entries []Entry
	closed  bool
}

// Post books entries unless the period is closed.
func (l *Ledger) Post(entries []Entry) error {
	if l.closed {
		return ErrClosed
	}
	l.entries = append(l.entries, entries...)
	return nil
}

func balance(entries []Entry) string {
	var sum int64
	for _, e := range entries {
		sum += e.Cents
	}
	return fmt.Sprintf("%d", sum)
}
