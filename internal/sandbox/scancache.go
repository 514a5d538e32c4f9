package sandbox

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"strconv"
)

// scanCacheMagic opens a ScanCache's content; the matcher's identity and
// keyScanBytes follow on the first line, so verdicts of another pattern or
// another size bound are never read as this one's.
const scanCacheMagic = "mcpc sandbox key scan v1"

// load reads the ScanCache once, before the first walk. Content that does
// not decode is dropped whole: every file is read again.
func (m *masker) load() {
	if m.loaded || m.cache == nil {
		return
	}
	m.loaded = true
	raw := m.cache.Load()
	if len(raw) == 0 {
		return
	}
	if got, ok := decodeScans(raw, m.header()); ok {
		m.scanned = got
	}
}

// save stores the verdicts when the last walk changed them.
func (m *masker) save() {
	if !m.dirty || m.cache == nil {
		return
	}
	m.dirty = false
	m.cache.Save(encodeScans(m.header(), m.scanned))
}

func (m *masker) header() string {
	return scanCacheMagic + " " + strconv.Itoa(keyScanBytes) + " " + strconv.Quote(m.keyID) + "\n"
}

// encodeScans writes the header, then per file (in path order, so equal
// verdicts store equal bytes): its path, stamp and verdict.
func encodeScans(header string, scans map[string]scanned) []byte {
	rels := make([]string, 0, len(scans))
	for rel := range scans {
		rels = append(rels, rel)
	}
	slices.Sort(rels)
	out := make([]byte, 0, len(header)+len(rels)*80)
	out = append(out, header...)
	for _, rel := range rels {
		s := scans[rel]
		out = binary.AppendUvarint(out, uint64(len(rel)))
		out = append(out, rel...)
		out = binary.AppendUvarint(out, s.stamp.dev)
		out = binary.AppendUvarint(out, s.stamp.ino)
		out = binary.AppendVarint(out, s.stamp.size)
		out = binary.AppendVarint(out, s.stamp.mtime)
		out = binary.AppendVarint(out, s.stamp.ctime)
		secret := byte(0)
		if s.secret {
			secret = 1
		}
		out = append(out, secret)
	}
	return out
}

var errBadScanCache = errors.New("malformed sandbox scan cache")

// decodeScans reads what encodeScans wrote under header; false for any
// other header or content cut short.
func decodeScans(raw []byte, header string) (map[string]scanned, bool) {
	rest, ok := bytes.CutPrefix(raw, []byte(header))
	if !ok {
		return nil, false
	}
	out := map[string]scanned{}
	d := decoder{b: rest}
	for len(d.b) > 0 && d.err == nil {
		n := d.uvarint()
		if d.err != nil || n > uint64(len(d.b)) {
			return nil, false
		}
		rel := string(d.b[:n])
		d.b = d.b[n:]
		var s scanned
		s.stamp.dev, s.stamp.ino = d.uvarint(), d.uvarint()
		s.stamp.size, s.stamp.mtime, s.stamp.ctime = d.varint(), d.varint(), d.varint()
		switch v := d.byte(); v {
		case 0, 1:
			s.secret = v == 1
		default:
			d.err = errBadScanCache
		}
		out[rel] = s
	}
	return out, d.err == nil
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 { return decodeVar(d, binary.Uvarint) }

func (d *decoder) varint() int64 { return decodeVar(d, binary.Varint) }

// decodeVar takes one varint from d with read (binary.Uvarint or Varint).
func decodeVar[T uint64 | int64](d *decoder, read func([]byte) (T, int)) T {
	v, n := read(d.b)
	if n <= 0 {
		d.err, d.b = errBadScanCache, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.err = errBadScanCache
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}
