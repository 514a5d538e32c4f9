package indexer

/*
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

// The tree-sitter runtime that go-tree-sitter compiles in, as in
// tree_sitter/api.h; mcpc_node is TSNode's layout (see children.go).
typedef struct { uint32_t context[4]; const void *id; const void *tree; } mcpc_node;
typedef struct mcpc_parser mcpc_parser;
typedef struct mcpc_tree mcpc_tree;
typedef struct mcpc_language mcpc_language;

extern mcpc_tree *ts_parser_parse_string(mcpc_parser *self, const mcpc_tree *old_tree, const char *string, uint32_t length);
extern const char *ts_node_type(mcpc_node self);
extern mcpc_node ts_node_child_by_field_name(mcpc_node self, const char *name, uint32_t name_length);
extern uint32_t ts_node_start_byte(mcpc_node self);
extern uint32_t ts_node_end_byte(mcpc_node self);
extern uint32_t ts_language_symbol_count(const mcpc_language *self);
extern const char *ts_language_symbol_name(const mcpc_language *self, uint16_t symbol);

// mcpc_child_by_field reads the field name from Go memory: go-tree-sitter's
// ChildByFieldName copies it into a C string and frees it, two more cgo
// calls and a malloc for each lookup.
static mcpc_node mcpc_child_by_field(mcpc_node n, _GoString_ name) {
	return ts_node_child_by_field_name(n, _GoStringPtr(name), (uint32_t)_GoStringLen(name));
}

static void mcpc_byte_range(mcpc_node n, uint32_t *start, uint32_t *end) {
	*start = ts_node_start_byte(n);
	*end = ts_node_end_byte(n);
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/mcpc/mcpc/internal/grammar"
)

// A sitter.Parser and a sitter.Tree are each one pointer to the runtime's
// object, and nothing else; parseBytes relies on it.
var (
	_ [unsafe.Sizeof(sitter.Parser{}) - unsafe.Sizeof(uintptr(0))]struct{}
	_ [unsafe.Sizeof(uintptr(0)) - unsafe.Sizeof(sitter.Parser{})]struct{}
	_ [unsafe.Sizeof(sitter.Tree{}) - unsafe.Sizeof(uintptr(0))]struct{}
	_ [unsafe.Sizeof(uintptr(0)) - unsafe.Sizeof(sitter.Tree{})]struct{}
)

// treeHandle has sitter.Tree's layout: the tree parseBytes returns is one,
// so that Close and RootNode work on it as on any other.
type treeHandle struct{ inner *C.mcpc_tree }

// parseBytes parses src in place. go-tree-sitter's Parse reads the source
// through a Go callback that copies what is left of it into a fresh C
// string each time the lexer asks (at least twice a file); the runtime's
// own string input reads src where it is. The runtime does not keep src
// past the call, so passing Go memory is within cgo's rules.
func parseBytes(p *sitter.Parser, src []byte) *sitter.Tree {
	inner := *(**C.mcpc_parser)(unsafe.Pointer(p))
	var text *C.char
	if len(src) > 0 {
		text = (*C.char)(unsafe.Pointer(&src[0]))
	}
	t := C.ts_parser_parse_string(inner, nil, text, C.uint32_t(len(src)))
	if t == nil {
		return nil
	}
	return (*sitter.Tree)(unsafe.Pointer(&treeHandle{inner: t}))
}

// kindNames maps the runtime's static node-type strings, by address, to
// Go strings, for every symbol of every grammar (and the runtime's own
// ERROR names): a node's kind is then one cgo call and a lookup, where
// sitter.Node.Kind also counts the C string's length and allocates a copy.
// Read only after init, so the parsing workers share it without a lock.
var kindNames = func() map[uintptr]string {
	names := map[uintptr]string{}
	for _, lang := range grammar.Languages {
		l := (*C.mcpc_language)(lang.Inner)
		n := uint32(C.ts_language_symbol_count(l))
		for id := uint32(0); id < n; id++ {
			add(names, C.ts_language_symbol_name(l, C.uint16_t(id)))
		}
		add(names, C.ts_language_symbol_name(l, C.uint16_t(0xFFFF))) // ERROR
		add(names, C.ts_language_symbol_name(l, C.uint16_t(0xFFFE))) // _ERROR
	}
	return names
}()

func add(names map[uintptr]string, p *C.char) {
	if p != nil {
		names[uintptr(unsafe.Pointer(p))] = C.GoString(p)
	}
}

func cnode(n *sitter.Node) C.mcpc_node { return *(*C.mcpc_node)(unsafe.Pointer(n)) }

// kindOf is n.Kind() without the copy.
func kindOf(n *sitter.Node) string { return kindName(C.ts_node_type(cnode(n))) }

// kindName is the Go string of a node type the runtime returned.
func kindName(p *C.char) string {
	if s, ok := kindNames[uintptr(unsafe.Pointer(p))]; ok {
		return s
	}
	return C.GoString(p) // a grammar not in grammar.Languages
}

// field is n.ChildByFieldName(name) in one cgo call: nil when n is nil or
// has no such child.
func field(n *sitter.Node, name string) *sitter.Node {
	if n == nil {
		return nil
	}
	c := C.mcpc_child_by_field(cnode(n), name)
	if c.id == nil {
		return nil
	}
	return (*sitter.Node)(unsafe.Pointer(&c))
}

// byteRange is n's start and end byte in one cgo call.
func byteRange(n *sitter.Node) (start, end uint) {
	var s, e C.uint32_t
	C.mcpc_byte_range(cnode(n), &s, &e)
	return uint(s), uint(e)
}
