//go:build unix && !linux

package pathscope

// openDirsAtOnce: only Linux has openat2 (beneath_linux.go); elsewhere the
// walk does it all.
func (r *Resolver) openDirsAtOnce([]string) (int, bool) { return -1, false }
