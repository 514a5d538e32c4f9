package pathscope

import "errors"

// Errors returned by the I/O functions, wrapped in *fs.PathError. A missing
// file is reported with fs.ErrNotExist (test with errors.Is).
var (
	// ErrInvalidPath: the name is not a clean canonical path free of every
	// syntactic problem (see Resolve), or it names the root itself.
	ErrInvalidPath = errors.New("not a clean repository-relative path")
	// ErrGitInternal: the name has a .git component. Writing there is code
	// execution (hooks) and reading there can leak credentials (remote URLs),
	// and no mcpc feature needs either through this package.
	ErrGitInternal = errors.New("path is inside .git")
	// ErrSymlink: the name or one of its parent directories is a symlink.
	ErrSymlink = errors.New("path goes through a symbolic link")
	// ErrNotRegular: a directory, FIFO, socket or device where a file is needed.
	ErrNotRegular = errors.New("not a regular file")
	// ErrHardLinked: the file has other names, possibly outside the worktree.
	ErrHardLinked = errors.New("file is hard-linked")
	// ErrTooLarge: the file is larger than the caller's limit.
	ErrTooLarge = errors.New("file larger than the limit")
)
