// Package pathscope is mcpc's boundary for file access by path.
//
// Agents name files with strings they chose. This package turns such a
// string into Facts about it (its canonical repository-relative form and a
// sorted list of stable problem codes) so that the Rego policy can decide
// what to allow. It never decides policy itself: a path inside .git or under
// the state directory is reported, not refused, by Resolve.
//
// The I/O functions (ReadFile, HashFile, WriteFileAtomic, Sub) are the other
// half of the boundary and do not trust earlier answers from Resolve, because
// the tree can change between the check and the use. Each call re-validates
// the name and then walks it one component at a time from an open descriptor
// of the root with O_NOFOLLOW (on Linux one openat2 with RESOLVE_NO_SYMLINKS
// does the same walk in the kernel), so no symbolic link is ever followed, nothing
// outside the worktree is ever opened, and a FIFO or device is never read
// (it is opened, if at all, with O_NONBLOCK and refused after fstat).
//
// Canonical paths are repository-relative, '/'-separated and cleaned; "."
// names the root itself. Nothing is ever URL-decoded or Unicode-normalised:
// "%2e%2e" and a fullwidth full stop are literal characters of a name that
// will simply not match any pack entry.
package pathscope
