package sandbox

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"maps"
	"slices"
	"strconv"
)

// scanCacheMagic opens a ScanCache's content; the matcher's identity and
// keyScanBytes follow on the first line, so verdicts of another pattern or
// another size bound are never read as this one's. The second line names
// the secret globs the name verdicts were made under (globsIdentity).
const scanCacheMagic = "mcpc sandbox key scan v2"

// load reads the ScanCache once, before the first walk. Content that does
// not decode is dropped whole: every file is read again, every path
// matched.
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
		m.scanned, m.keptNames, m.namesFrom = got.scans, got.names, got.globsID
	}
}

// save stores the verdicts when the last walk changed them.
func (m *masker) save() {
	if !m.dirty || m.cache == nil {
		return
	}
	m.dirty = false
	m.cache.Save(encodeScans(m.header(), m.kept()))
}

func (m *masker) header() string {
	return scanCacheMagic + " " + strconv.Itoa(keyScanBytes) + " " + strconv.Quote(m.keyID) + "\n"
}

// keptScans is what a ScanCache holds: the key verdicts by path and
// stamp, and the name verdicts under the globs of globsID: of the paths
// with a key verdict, flagUnnamed; of the others (folders, named files,
// large or fresh ones), names.
type keptScans struct {
	scans   map[string]scanned
	names   map[string]bool
	globsID string
}

// kept is what the last walk knows: its name verdicts (every path it saw,
// under the current globs) and the key verdicts.
func (m *masker) kept() keptScans {
	k := keptScans{scans: make(map[string]scanned, len(m.scanned)), names: map[string]bool{}, globsID: m.globsID}
	for rel, n := range m.names {
		if _, ok := m.scanned[rel]; !ok || n.named {
			k.names[rel] = n.named
		}
	}
	for rel, s := range m.scanned {
		n := m.names[rel]
		s.unnamed = n != nil && !n.named
		k.scans[rel] = s
	}
	return k
}

// encodeScans writes the header and the globs' identity, then the count
// of key verdicts and per file (in path order, so equal verdicts store
// equal bytes): its path, stamp and a flags byte (flagSecret,
// flagUnnamed); then the count of the other paths' name verdicts and per
// path its name and a byte, 1 when named;
// then the SHA-256 of all that, so a damaged byte (a flag turning a
// secret clean) drops the cache rather than unmasking a file.
func encodeScans(header string, k keptScans) []byte {
	rels := slices.Sorted(maps.Keys(k.scans))
	out := make([]byte, 0, len(header)+len(k.globsID)+(len(rels)+len(k.names))*80)
	out = append(out, header...)
	out = append(out, k.globsID...)
	out = append(out, '\n')
	out = binary.AppendUvarint(out, uint64(len(rels)))
	for _, rel := range rels {
		s := k.scans[rel]
		out = appendString(out, rel)
		out = binary.AppendUvarint(out, s.stamp.dev)
		out = binary.AppendUvarint(out, s.stamp.ino)
		out = binary.AppendVarint(out, s.stamp.size)
		out = binary.AppendVarint(out, s.stamp.mtime)
		out = binary.AppendVarint(out, s.stamp.ctime)
		flags := byte(0)
		if s.secret {
			flags |= flagSecret
		}
		if s.unnamed {
			flags |= flagUnnamed
		}
		out = append(out, flags)
	}
	others := slices.Sorted(maps.Keys(k.names))
	out = binary.AppendUvarint(out, uint64(len(others)))
	for _, rel := range others {
		out = appendString(out, rel)
		named := byte(0)
		if k.names[rel] {
			named = 1
		}
		out = append(out, named)
	}
	check := sha256.Sum256(out)
	return append(out, check[:]...)
}

// The flags of a key verdict.
const (
	flagSecret  = 1 << iota // the file holds key material
	flagUnnamed             // no secret glob names the path
)

func appendString(out []byte, s string) []byte {
	out = binary.AppendUvarint(out, uint64(len(s)))
	return append(out, s...)
}

var errBadScanCache = errors.New("malformed sandbox scan cache")

// decodeScans reads what encodeScans wrote under header; false for any
// other header, a checksum that does not match, content cut short or
// running past its counts.
func decodeScans(raw []byte, header string) (keptScans, bool) {
	if len(raw) < len(header)+sha256.Size {
		return keptScans{}, false
	}
	raw, check := raw[:len(raw)-sha256.Size], raw[len(raw)-sha256.Size:]
	if sum := sha256.Sum256(raw); !bytes.Equal(sum[:], check) {
		return keptScans{}, false
	}
	rest, ok := bytes.CutPrefix(raw, []byte(header))
	if !ok {
		return keptScans{}, false
	}
	line, rest, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok {
		return keptScans{}, false
	}
	k := keptScans{scans: map[string]scanned{}, names: map[string]bool{}, globsID: string(line)}
	d := decoder{b: rest}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		rel := d.string()
		var s scanned
		s.stamp.dev, s.stamp.ino = d.uvarint(), d.uvarint()
		s.stamp.size, s.stamp.mtime, s.stamp.ctime = d.varint(), d.varint(), d.varint()
		flags := d.byte()
		if flags&^(flagSecret|flagUnnamed) != 0 {
			d.err = errBadScanCache
		}
		s.secret, s.unnamed = flags&flagSecret != 0, flags&flagUnnamed != 0
		k.scans[rel] = s
	}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		rel := d.string()
		switch named := d.byte(); named {
		case 0, 1:
			k.names[rel] = named == 1
		default:
			d.err = errBadScanCache
		}
	}
	if d.err != nil || len(d.b) > 0 {
		return keptScans{}, false
	}
	return k, true
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

// count reads a count of entries, each at least one byte long: one past
// what is left is content cut short.
func (d *decoder) count() uint64 {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.err, d.b = errBadScanCache, nil
		return 0
	}
	return n
}

func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.err, d.b = errBadScanCache, nil
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
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
