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

extern const char *ts_node_type(mcpc_node self);

// mcpc_named_kids writes up to cap of n's named children to out and, when
// kinds is not NULL, each one's node type (a static string of the
// grammar's) to kinds, and returns how many it has.
// out and kinds are void pointers so that cgo's pointer check of Go memory
// passed to C looks at their (pointer-free) allocations once instead of
// scanning every node's fields.
static uint32_t mcpc_named_kids(mcpc_node n, void *outp, void *kindsp, uint32_t cap) {
	mcpc_node *out = outp;
	const char **kinds = kindsp;
	uint32_t count = 0;
	mcpc_cursor c = ts_tree_cursor_new(n);
	if (ts_tree_cursor_goto_first_child(&c)) {
		do {
			mcpc_node child = ts_tree_cursor_current_node(&c);
			if (ts_node_is_named(child)) {
				if (count < cap) {
					out[count] = child;
					if (kinds) kinds[count] = ts_node_type(child);
				}
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
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// A sitter.Node is a TSNode and nothing else; the conversions below rely
// on it.
var _ [unsafe.Sizeof(sitter.Node{}) - unsafe.Sizeof(C.mcpc_node{})]struct{}
var _ [unsafe.Sizeof(C.mcpc_node{}) - unsafe.Sizeof(sitter.Node{})]struct{}
var _ [unsafe.Sizeof(C.mcpc_node{}) % 8]struct{} // kids' buffers are of 8-byte words

// namedChildren returns n's named children. It lists them in one cgo call:
// go-tree-sitter's NamedChildren makes three per child plus a cursor's
// worth, and the extractors list children of most nodes they look at.
func namedChildren(n *sitter.Node) []sitter.Node {
	if n == nil {
		return nil
	}
	cn := *(*C.mcpc_node)(unsafe.Pointer(n))
	out := make([]sitter.Node, 8) // most nodes have fewer: one call, one allocation
	count := int(C.mcpc_named_kids(cn, unsafe.Pointer(&out[0]), nil, C.uint32_t(len(out))))
	if count > len(out) {
		out = make([]sitter.Node, count)
		C.mcpc_named_kids(cn, unsafe.Pointer(&out[0]), nil, C.uint32_t(count))
	}
	out = out[:count]
	return out
}

// kid is a named child with its kind, both listed in one cgo call.
type kid struct {
	Node sitter.Node
	Kind string
}

// kids is namedChildren with each child's kind: the extractors switch on
// the kind of nearly every child they list, and a kind apiece was a cgo
// call apiece.
func kids(n *sitter.Node) []kid {
	if n == nil {
		return nil
	}
	cn := *(*C.mcpc_node)(unsafe.Pointer(n))
	// Buffers of plain integers, from a pool: the nodes and names they
	// receive point into the C runtime's memory, never Go's, and cgo's
	// check of the memory handed to C would move buffers on the stack to
	// the heap, two allocations a call.
	sc := kidScratch.Get().(*scratch)
	defer kidScratch.Put(sc)
	count := int(C.mcpc_named_kids(cn, unsafe.Pointer(&sc.nodes[0]), unsafe.Pointer(&sc.kinds[0]), C.uint32_t(len(sc.kinds))))
	if count > len(sc.kinds) {
		return manyKids(cn, count)
	}
	return kidsOf(sc.nodes[:count*nodeWords], sc.kinds[:count])
}

// scratch holds the buffers of one kids call.
type scratch struct {
	nodes [16 * nodeWords]uint64
	kinds [16]uintptr
}

var kidScratch = sync.Pool{New: func() any { return new(scratch) }}

// nodeWords is the size of a node in kids' buffers.
const nodeWords = int(unsafe.Sizeof(C.mcpc_node{}) / 8)

// manyKids is kids for a node with more than 16 named children.
func manyKids(cn C.mcpc_node, count int) []kid {
	nodes, kinds := make([]uint64, count*nodeWords), make([]uintptr, count)
	C.mcpc_named_kids(cn, unsafe.Pointer(&nodes[0]), unsafe.Pointer(&kinds[0]), C.uint32_t(count))
	return kidsOf(nodes, kinds)
}

// kidsOf turns the buffers mcpc_named_kids filled into kids.
func kidsOf(nodes []uint64, kinds []uintptr) []kid {
	out := make([]kid, len(kinds))
	for i := range out {
		out[i].Node = *(*sitter.Node)(unsafe.Pointer(&nodes[i*nodeWords]))
		name, ok := kindNames[kinds[i]]
		if !ok {
			name = kindOf(&out[i].Node)
		}
		out[i].Kind = name
	}
	return out
}
