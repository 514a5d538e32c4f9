package sandbox

import "sync"

// Tail is an io.Writer that keeps the last Max bytes written to it and
// counts them all: a command's output is streamed through it, so a
// command printing gigabytes costs mcpc Max bytes of memory, not the
// output's size. Safe for concurrent writes (stdout and stderr).
type Tail struct {
	max   int
	mu    sync.Mutex
	buf   []byte // a ring once full
	start int    // where the oldest byte is, once full
	total int64
}

// NewTail returns a Tail keeping max bytes (at least 1).
func NewTail(max int) *Tail {
	if max < 1 {
		max = 1
	}
	return &Tail{max: max}
}

// Write keeps the tail of p; it never fails.
func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	t.total += int64(n)
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		t.start = 0
		return n, nil
	}
	if room := t.max - len(t.buf); room > 0 {
		k := min(room, len(p))
		t.buf = append(t.buf, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 { // full: overwrite the oldest bytes
		k := copy(t.buf[t.start:], p)
		p = p[k:]
		t.start = (t.start + k) % t.max
	}
	return n, nil
}

// Bytes returns the kept tail in order.
func (t *Tail) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]byte, 0, len(t.buf))
	return append(append(out, t.buf[t.start:]...), t.buf[:t.start]...)
}

// Total is how many bytes were written.
func (t *Tail) Total() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total
}

// Truncated says whether bytes were dropped.
func (t *Tail) Truncated() bool { return t.Total() > int64(t.max) }
