//go:build !unix

package pathscope

// CreateFileAtomic is unsupported where the descriptor walk is.
func (r *Resolver) CreateFileAtomic(canonical string, data []byte, mkdirParents bool) error {
	return errUnsupported
}
