//go:build !unix

package pathscope

func (r *Resolver) ReadTail(canonical string, n int64) ([]byte, error) { return nil, errUnsupported }
