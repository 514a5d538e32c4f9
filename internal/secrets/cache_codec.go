package secrets

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"slices"
)

// cacheMagic opens a Cache's stored content; the rule set's identity
// follows on the first line, so verdicts of other rules or another build
// are never read as this one's.
const cacheMagic = "mcpc secret scan v1"

func cacheHeader(identity string) string { return cacheMagic + " " + identity + "\n" }

// encodeVerdicts writes the header, then the count and per content (by
// digest, so equal verdicts store equal bytes) its digest, use time and
// findings, then the SHA-256 of all that: a verdict damaged on disk (a
// flipped bit in a count could turn findings into none) is detected, not
// trusted.
func encodeVerdicts(header string, entries map[digest]verdict) []byte {
	sums := make([]digest, 0, len(entries))
	for sum := range entries {
		sums = append(sums, sum)
	}
	slices.SortFunc(sums, func(a, b digest) int { return bytes.Compare(a[:], b[:]) })
	out := make([]byte, 0, len(header)+len(sums)*(sha256.Size+8)+sha256.Size)
	out = append(out, header...)
	out = binary.AppendUvarint(out, uint64(len(sums)))
	for _, sum := range sums {
		v := entries[sum]
		out = append(out, sum[:]...)
		out = binary.AppendVarint(out, v.used)
		out = binary.AppendUvarint(out, uint64(len(v.findings)))
		for _, f := range v.findings {
			out = appendString(out, f.RuleID)
			out = appendString(out, f.Description)
			out = binary.AppendVarint(out, int64(f.StartLine))
			out = binary.AppendVarint(out, int64(f.EndLine))
		}
	}
	check := sha256.Sum256(out)
	return append(out, check[:]...)
}

func appendString(out []byte, s string) []byte {
	out = binary.AppendUvarint(out, uint64(len(s)))
	return append(out, s...)
}

// decodeVerdicts reads what encodeVerdicts wrote under header; false for
// any other header, a checksum that does not match, or content cut short
// or running past what it counts.
func decodeVerdicts(raw []byte, header string) (map[digest]verdict, bool) {
	if len(raw) < len(header)+sha256.Size || !bytes.HasPrefix(raw, []byte(header)) {
		return nil, false
	}
	body, check := raw[:len(raw)-sha256.Size], raw[len(raw)-sha256.Size:]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], check) {
		return nil, false
	}
	d := reader{b: body[len(header):]}
	n := d.uvarint()
	if n > uint64(len(d.b))/sha256.Size {
		return nil, false
	}
	out := make(map[digest]verdict, n)
	for range n {
		var sum digest
		copy(sum[:], d.take(sha256.Size))
		v := verdict{used: d.varint()}
		count := d.uvarint()
		if count > maxCachedFindings {
			return nil, false
		}
		for range count {
			f := Finding{RuleID: d.str(), Description: d.str()}
			f.StartLine, f.EndLine = int(d.varint()), int(d.varint())
			v.findings = append(v.findings, f)
		}
		if d.bad {
			return nil, false
		}
		out[sum] = v
	}
	if d.bad || len(d.b) > 0 {
		return nil, false
	}
	return out, true
}

// reader takes values off b; once one does not fit, bad is set and every
// later value is zero.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) take(n int) []byte {
	if r.bad || n > len(r.b) {
		r.bad, r.b = true, nil
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) str() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.bad, r.b = true, nil
		return ""
	}
	return string(r.take(int(n)))
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}
