//go:build !linux

package fswatch

// Watcher is a stand-in where there is no watcher: New fails, and the
// indexer walks the whole tree every time.
type Watcher struct{}

// New reports ErrUnsupported.
func New() (*Watcher, error) { return nil, ErrUnsupported }

// Reset reports ErrUnsupported.
func (w *Watcher) Reset() error { return ErrUnsupported }

// Epoch is always 0: nothing is vouched for.
func (w *Watcher) Epoch() uint64 { return 0 }

// Add watches nothing.
func (w *Watcher) Add(abs, key string) bool { return false }

// Watched is always false.
func (w *Watcher) Watched(key string) bool { return false }

// Drain vouches for nothing.
func (w *Watcher) Drain() (map[string]bool, bool) { return nil, false }

// Invalidate does nothing.
func (w *Watcher) Invalidate() {}

// Close does nothing.
func (w *Watcher) Close() error { return nil }
