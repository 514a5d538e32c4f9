package indexer

/*
#include <stdbool.h>
#include <stdint.h>

// The layouts of TSNode and TSTreeCursor in the tree-sitter runtime that
// go-tree-sitter compiles in (tree_sitter/api.h), and the functions used.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } mcpc_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } mcpc_cursor;

extern uint32_t ts_node_named_child_count(mcpc_node self);
extern bool ts_node_is_named(mcpc_node self);
extern mcpc_cursor ts_tree_cursor_new(mcpc_node node);
extern void ts_tree_cursor_delete(mcpc_cursor *self);
extern mcpc_node ts_tree_cursor_current_node(const mcpc_cursor *self);
extern bool ts_tree_cursor_goto_first_child(mcpc_cursor *self);
extern bool ts_tree_cursor_goto_next_sibling(mcpc_cursor *self);

// mcpc_named_children writes up to cap of n's named children to out and
// returns how many it has.
static uint32_t mcpc_named_children(mcpc_node n, mcpc_node *out, uint32_t cap) {
	uint32_t count = 0;
	mcpc_cursor c = ts_tree_cursor_new(n);
	if (ts_tree_cursor_goto_first_child(&c)) {
		do {
			mcpc_node child = ts_tree_cursor_current_node(&c);
			if (ts_node_is_named(child)) {
				if (count < cap) out[count] = child;
				count++;
			}
		} while (ts_tree_cursor_goto_next_sibling(&c));
	}
	ts_tree_cursor_delete(&c);
	return count;
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// A sitter.Node is a TSNode and nothing else; the conversions below rely
// on it.
var _ [unsafe.Sizeof(sitter.Node{}) - unsafe.Sizeof(C.mcpc_node{})]struct{}
var _ [unsafe.Sizeof(C.mcpc_node{}) - unsafe.Sizeof(sitter.Node{})]struct{}

// namedChildren returns n's named children. It lists them in one cgo call:
// go-tree-sitter's NamedChildren makes three per child plus a cursor's
// worth, and the extractors list children of most nodes they look at.
func namedChildren(n *sitter.Node) []sitter.Node {
	if n == nil {
		return nil
	}
	cn := *(*C.mcpc_node)(unsafe.Pointer(n))
	out := make([]sitter.Node, 8) // most nodes have fewer: one call, one allocation
	count := int(C.mcpc_named_children(cn, (*C.mcpc_node)(unsafe.Pointer(&out[0])), C.uint32_t(len(out))))
	if count > len(out) {
		out = make([]sitter.Node, count)
		C.mcpc_named_children(cn, (*C.mcpc_node)(unsafe.Pointer(&out[0])), C.uint32_t(count))
	}
	out = out[:count]
	return out
}
