package indexer

// The stored form of a view (viewcache.go says when one is stored and
// read): a header with the key, the view's lists referring to strings by
// number, the corpus as a section of its own, the string table, where the
// corpus and the table start, and a CRC of everything before it.

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

const (
	viewCacheMagic   = "mcpc-view\n"
	viewCacheVersion = 2
)

// errViewCache is a stored view that cannot be read: a miss.
var errViewCache = errors.New("indexer: stored view unreadable")

// storeView writes v under key to file: a temporary file renamed over the
// old one, so a reader sees either whole. It streams: what it holds beyond
// the view is the string table.
func storeView(file, key string, v *view) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(file), ".view-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	crc := crc32.New(crcTable)
	w := &viewWriter{out: bufio.NewWriterSize(io.MultiWriter(tmp, crc), 1<<16), ids: make(map[string]uint32, 1<<16)}
	w.raw([]byte(viewCacheMagic))
	w.num(viewCacheVersion)
	w.num(len(key))
	w.raw([]byte(key))
	w.lists(v)
	corpus := w.n
	w.corpus(v.corpus)
	table := w.n
	w.num(len(w.strs))
	for _, s := range w.strs {
		w.num(len(s))
		w.raw([]byte(s))
	}
	w.raw(binary.LittleEndian.AppendUint64(nil, uint64(corpus)))
	w.raw(binary.LittleEndian.AppendUint64(nil, uint64(table)))
	if err := w.out.Flush(); err != nil {
		tmp.Close()
		return err
	}
	_, werr := tmp.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
	if err := errors.Join(werr, tmp.Close()); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// loadView reads the view stored in file if it was stored under key; a
// missing file, another key or an unreadable file return nil.
func loadView(file, key string) (*view, error) {
	// As sources are read (readRegular): not through a link, like the
	// database the file must be mcpc's own, and bounded.
	data, err := readRegular(file, maxViewFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if len(data) > maxViewFile {
		return nil, fmt.Errorf("%s is larger than %d bytes", file, maxViewFile)
	}
	return decodeView(data, key)
}

// maxViewFile bounds a stored view: 47,550 files store 22.7 MB.
const maxViewFile = 1 << 30

// viewWriter writes the stored form: the view's lists referring to strings
// by number, then the table of those strings (so it need not be known
// before the lists are written), then where the table starts.
type viewWriter struct {
	out  *bufio.Writer
	n    int // bytes written
	ids  map[string]uint32
	strs []string
	buf  [binary.MaxVarintLen64]byte
}

func (w *viewWriter) raw(b []byte) {
	w.out.Write(b) // a bufio.Writer's error sticks until Flush, which returns it
	w.n += len(b)
}

func (w *viewWriter) num(n int)   { w.raw(binary.AppendUvarint(w.buf[:0], uint64(n))) }
func (w *viewWriter) i64(n int64) { w.raw(binary.AppendVarint(w.buf[:0], n)) }

func (w *viewWriter) str(s string) {
	id, ok := w.ids[s]
	if !ok {
		id = uint32(len(w.strs))
		w.ids[s] = id
		w.strs = append(w.strs, s)
	}
	w.num(int(id))
}

func (w *viewWriter) lists(v *view) {
	w.num(len(v.files))
	for _, f := range v.files {
		w.str(f)
	}
	w.num(len(v.symbols))
	for _, s := range v.symbols {
		w.str(s.Name)
		w.str(s.Kind)
		w.str(s.File)
		w.num(s.StartLine)
		w.num(s.EndLine)
		w.num(boolNum(s.Exported))
		w.str(s.Container)
	}
	w.num(len(v.usages))
	for _, u := range v.usages {
		w.str(u.Tag)
		w.str(u.File)
		w.num(u.StartLine)
		w.num(u.EndLine)
		w.str(u.Attrs)
		w.str(u.Anchor)
	}
	w.num(len(v.edges))
	for _, e := range v.edges {
		w.str(e.From)
		w.str(e.To)
		w.str(e.Kind)
		w.str(e.Symbol)
	}
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

func boolNum(b bool) int {
	if b {
		return 1
	}
	return 0
}

// corpus writes the per-document lengths and every term's current
// postings (the overlay's where it has them), documents as deltas. It is
// a section of its own, read beside the other lists.
func (w *viewWriter) corpus(c *Corpus) {
	w.num(len(c.Files))
	for i := range c.Files {
		w.num(int(c.Lens[i]))
		w.i64(c.Sizes[i])
		w.str(c.Langs[i])
	}
	var terms []string
	for _, t := range c.names {
		if len(c.Postings(t)) > 0 {
			terms = append(terms, t)
		}
	}
	for _, t := range slices.Sorted(maps.Keys(c.overlay)) {
		if _, inBase := c.terms[t]; !inBase && len(c.overlay[t]) > 0 {
			terms = append(terms, t)
		}
	}
	postings := 0
	for _, t := range terms {
		postings += len(c.Postings(t))
	}
	w.num(len(terms))
	w.num(postings)
	for _, t := range terms {
		list := c.Postings(t)
		w.str(t)
		w.num(len(list))
		prev := int32(-1)
		for _, p := range list {
			w.num(int(p.Doc - prev))
			w.num(int(p.TF))
			prev = p.Doc
		}
	}
}

// viewReader reads what viewWriter wrote; the first fault sticks and
// every later read returns zero values.
type viewReader struct {
	data []byte
	strs []string
	err  error
}

func (r *viewReader) fail() {
	if r.err == nil {
		r.err = errViewCache
	}
}

func (r *viewReader) num() int {
	if len(r.data) > 0 && r.data[0] < 0x80 && r.err == nil {
		// One byte, as most string numbers, lines and counts are: not
		// binary.Uvarint's loop, which is a third of a read's time.
		n := int(r.data[0])
		r.data = r.data[1:]
		return n
	}
	if r.err != nil {
		return 0
	}
	n, k := binary.Uvarint(r.data)
	if k <= 0 || n > 1<<40 {
		r.fail()
		return 0
	}
	r.data = r.data[k:]
	return int(n)
}

func (r *viewReader) i64() int64 {
	if r.err != nil {
		return 0
	}
	n, k := binary.Varint(r.data)
	if k <= 0 {
		r.fail()
		return 0
	}
	r.data = r.data[k:]
	return n
}

// count reads a list's length, bounded by the bytes left at per bytes an
// element at least, so a damaged length cannot ask for a huge allocation.
func (r *viewReader) count(per int) int {
	n := r.num()
	if n > len(r.data)/per {
		r.fail()
		return 0
	}
	return n
}

func (r *viewReader) str() string {
	id := r.num()
	if id >= len(r.strs) {
		r.fail()
		return ""
	}
	return r.strs[id]
}

func (r *viewReader) bytes(n int) []byte {
	if r.err != nil || n > len(r.data) {
		r.fail()
		return nil
	}
	b := r.data[:n]
	r.data = r.data[n:]
	return b
}

func decodeView(data []byte, key string) (*view, error) {
	if len(data) < len(viewCacheMagic)+20 || string(data[:len(viewCacheMagic)]) != viewCacheMagic {
		return nil, errViewCache
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	r := &viewReader{data: body[len(viewCacheMagic):]}
	if r.num() != viewCacheVersion || string(r.bytes(r.count(1))) != key {
		return nil, r.err // another key or format: a miss, not a fault
	}
	if crc32.Checksum(body, crcTable) != sum {
		return nil, errViewCache
	}
	return r.view(body, len(body)-len(r.data))
}

// view reads the lists of a stored view, body its bytes without the
// checksum, lists the offset at which they start. The corpus is read on
// another goroutine: at 47,550 files it and the rest took about 0.2 CPU-s
// each.
func (r *viewReader) view(body []byte, lists int) (*view, error) {
	if len(body) < lists+16 {
		return nil, errViewCache
	}
	corpusAt := binary.LittleEndian.Uint64(body[len(body)-16:])
	table := binary.LittleEndian.Uint64(body[len(body)-8:])
	if corpusAt < uint64(lists) || table < corpusAt || table > uint64(len(body)-16) {
		return nil, errViewCache
	}
	r.data = body[table : len(body)-16]
	// One string holds every table entry: the view's strings share it
	// instead of an allocation each.
	n := r.count(1)
	offs := make([]int, n+1)
	var all strings.Builder
	all.Grow(len(r.data))
	for i := range n {
		all.Write(r.bytes(r.count(1)))
		offs[i+1] = all.Len()
	}
	if r.err != nil || len(r.data) != 0 {
		return nil, errViewCache
	}
	joined := all.String()
	r.strs = make([]string, n)
	for i := range n {
		r.strs[i] = joined[offs[i]:offs[i+1]]
	}

	cr := &viewReader{data: body[corpusAt:table], strs: r.strs}
	corpus := make(chan *Corpus, 1)
	go func() { corpus <- cr.corpus() }()
	r.data = body[lists:corpusAt]
	v := r.lists()
	v.corpus = <-corpus
	if r.err != nil || cr.err != nil || len(r.data) != 0 || len(cr.data) != 0 || len(v.corpus.Files) != len(v.files) {
		return nil, errViewCache
	}
	v.corpus.Files = v.files
	v.corpus.docOf = make(map[string]int32, len(v.files))
	for i, f := range v.files {
		v.corpus.docOf[f] = int32(i)
	}
	return v, nil
}

// lists reads the files, symbols, usages and edges, and derives the
// view's lookups from them.
func (r *viewReader) lists() *view {
	v := &view{files: make([]string, r.count(1))}
	for i := range v.files {
		v.files[i] = r.str()
	}
	v.symbols = make([]Symbol, r.count(7))
	for i := range v.symbols {
		v.symbols[i] = Symbol{Name: r.str(), Kind: r.str(), File: r.str(), StartLine: r.num(), EndLine: r.num(), Exported: r.num() == 1, Container: r.str()}
	}
	v.usages = make([]Usage, r.count(6))
	for i := range v.usages {
		v.usages[i] = Usage{Tag: r.str(), File: r.str(), StartLine: r.num(), EndLine: r.num(), Attrs: r.str(), Anchor: r.str()}
	}
	v.edges = make([]Edge, r.count(4))
	for i := range v.edges {
		v.edges[i] = Edge{From: r.str(), To: r.str(), Kind: r.str(), Symbol: r.str()}
	}
	v.unindexed = true // view.lookups derives them when first read
	return v
}

// corpus reads the corpus section; its Files and docOf are the view's,
// set by the caller.
func (r *viewReader) corpus() *Corpus {
	docs := r.count(3)
	c := &Corpus{
		Files: make([]string, docs),
		Lens:  make([]int32, docs),
		Sizes: make([]int64, docs),
		Langs: make([]string, docs),
	}
	for i := range docs {
		c.Lens[i], c.Sizes[i], c.Langs[i] = int32(r.num()), r.i64(), r.str()
		c.totalLen += int64(c.Lens[i])
	}
	nTerms := r.count(2)
	c.terms = make(map[string]uint32, nTerms)
	c.spans = make([]span, 0, nTerms)
	c.names = make([]string, 0, nTerms)
	c.arena = make([]Posting, 0, r.count(2))
	for range nTerms {
		t := r.str()
		n := r.count(2)
		if len(c.arena)+n > cap(c.arena) {
			r.fail()
			return c
		}
		sp := span{off: uint32(len(c.arena)), n: uint32(n)}
		if c.arena = r.postings(c.arena, n, docs); r.err != nil {
			return c
		}
		if _, dup := c.terms[t]; dup {
			r.fail()
			return c
		}
		c.terms[t] = uint32(len(c.spans))
		c.spans = append(c.spans, sp)
		c.names = append(c.names, t)
	}
	c.setAvgLen()
	return c
}

// postings appends n postings of a term to arena: documents as deltas
// from the one before, each in [0, docs), then their term frequencies. It
// is num's work without a call per number: the postings are most of a
// stored view's numbers (5.5 million at 47,550 files).
func (r *viewReader) postings(arena []Posting, n, docs int) []Posting {
	data := r.data
	doc := int32(-1)
	for range n {
		var delta, tf uint64
		if len(data) >= 2 && data[0] < 0x80 && data[1] < 0x80 {
			delta, tf, data = uint64(data[0]), uint64(data[1]), data[2:]
		} else {
			k := 0
			if delta, k = binary.Uvarint(data); k <= 0 {
				r.fail()
				return arena
			}
			data = data[k:]
			if tf, k = binary.Uvarint(data); k <= 0 || tf > 1<<40 {
				r.fail()
				return arena
			}
			data = data[k:]
		}
		if delta == 0 || delta >= uint64(int64(docs)-int64(doc)) { // doc+delta past the last document
			r.fail()
			return arena
		}
		doc += int32(delta)
		arena = append(arena, Posting{Doc: doc, TF: int32(tf)})
	}
	r.data = data
	return arena
}

// index derives the view's lookups from its lists, equal to buildView's.
// Each lookup is one copy of its list grouped by key, not a slice grown
// per key: at 47,550 files growing them allocated 138 MB for 63 MB
// kept.
func (v *view) index() {
	v.edgesTo = groupBy(v.edges, func(i int) string { return v.edges[i].To })
	v.edgesFrom = map[string][]Edge{}
	for i := 0; i < len(v.edges); {
		j := i + 1
		for j < len(v.edges) && v.edges[j].From == v.edges[i].From {
			j++
		}
		v.edgesFrom[v.edges[i].From] = v.edges[i:j:j]
		i = j
	}
}

// groupBy maps each key of list's elements (key(i) of list[i]) to its
// elements in list order, all of them in one copy of list: counted first,
// then placed.
func groupBy[T any](list []T, key func(i int) string) map[string][]T {
	type slot struct{ off, n int }
	slots := map[string]*slot{}
	of := make([]*slot, len(list)) // each element's: placing looks nothing up
	for i := range list {
		k := key(i)
		sl := slots[k]
		if sl == nil {
			sl = &slot{}
			slots[k] = sl
		}
		sl.n++
		of[i] = sl
	}
	off := 0
	for _, sl := range slots {
		sl.off, off, sl.n = off, off+sl.n, 0
	}
	grouped := make([]T, len(list))
	for i, sl := range of {
		grouped[sl.off+sl.n] = list[i]
		sl.n++
	}
	out := make(map[string][]T, len(slots))
	for k, sl := range slots {
		out[k] = grouped[sl.off : sl.off+sl.n : sl.off+sl.n]
	}
	return out
}
