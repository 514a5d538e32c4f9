package indexer

import "encoding/binary"

// termBlob is one file's term counts as (uvarint length, term bytes, uvarint
// count) tuples in term order: the form the database stores, and compact
// enough to keep in memory for every file of a large tree. Equal content
// gives equal blobs.
type termBlob []byte

func (b termBlob) append(term string, n int32) termBlob {
	b = binary.AppendUvarint(b, uint64(len(term)))
	b = append(b, term...)
	return binary.AppendUvarint(b, uint64(n))
}

// each calls fn for every term in order. term is a slice of the blob: copy
// it to keep it. A malformed tail (a damaged row) ends the walk.
func (b termBlob) each(fn func(term []byte, n int32)) {
	for len(b) > 0 {
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return
		}
		term := b[k : k+int(l)]
		b = b[k+int(l):]
		c, k := binary.Uvarint(b)
		if k <= 0 {
			return
		}
		b = b[k:]
		fn(term, int32(c))
	}
}

// counts decodes the blob into a map (tests and small files).
func (b termBlob) counts() map[string]int32 {
	out := map[string]int32{}
	b.each(func(t []byte, n int32) { out[string(t)] = n })
	return out
}

// termCount is one entry of a decoded blob.
type termCount struct {
	term []byte
	n    int32
}

func (b termBlob) list() []termCount {
	var out []termCount
	b.each(func(t []byte, n int32) { out = append(out, termCount{t, n}) })
	return out
}
