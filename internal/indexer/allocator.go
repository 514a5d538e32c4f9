package indexer

/*
#include <stddef.h>

// From the tree-sitter runtime that go-tree-sitter compiles in.
extern void ts_set_allocator(
	void *(*new_malloc)(size_t),
	void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t),
	void (*new_free)(void *));

static void mcpc_ts_default_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }
*/
import "C"

// go-tree-sitter's init routes every allocation of the tree-sitter runtime
// through exported Go functions (so that Go code could swap the allocator),
// which turns each of the millions of small mallocs and frees of a parse into
// a C-to-Go callback. On a 4,800-file application that was a fifth of the
// CPU of a cold index. Nothing in mcpc replaces the allocator, so the
// runtime's own libc defaults are set back here; both paths end in the same
// libc malloc, so memory allocated before this runs is freed correctly.
func init() { C.mcpc_ts_default_allocator() }
