package graph

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
)

// seal drops the group's edges whose ends no group produces (a tag
// mentioned in prose that nothing declares or uses, an import of an
// unindexed file), so that the group's hash changes when such an end
// appears and the edge is written then, and hashes the group. It returns
// the edges' ends in other groups, each once, for the memo; memoizable is
// false when an end is of a kind only its own group could produce (never,
// by how groups are built: see universe), since no memo could tell when
// it appears.
func (b *builder) seal(g *Group) (ends []groupEnd, memoizable bool) {
	clear(b.own)
	clear(b.ends)
	for _, n := range g.Nodes {
		b.own[n.ID] = struct{}{}
	}
	memoizable = true
	kept := g.Edges[:0]
	for _, e := range g.Edges {
		keep := true
		for _, id := range [2]string{e.From, e.To} {
			if _, own := b.own[id]; own {
				continue
			}
			end, known := b.u.end(id)
			if !known {
				keep, memoizable = false, false
				continue
			}
			if _, dup := b.ends[end]; !dup {
				b.ends[end] = struct{}{}
				ends = append(ends, end)
			}
			keep = keep && end.present
		}
		if keep {
			kept = append(kept, e)
		}
	}
	clear(g.Edges[len(kept):]) // the dropped edges' strings are not kept alive
	g.Edges = kept
	h := sha256.New()
	for _, n := range g.Nodes {
		b.buf = appendNode(b.buf[:0], n)
		h.Write(b.buf)
	}
	for _, e := range g.Edges {
		b.buf = appendEdge(b.buf[:0], e)
		h.Write(b.buf)
	}
	g.Hash = hex.EncodeToString(h.Sum(nil))[:32]
	return slices.Clip(ends), memoizable
}

// holdsAll reports whether every end of a memoized group exists now
// exactly when it did.
func (u *universe) holdsAll(ends []groupEnd) bool {
	for _, e := range ends {
		if !u.holds(e) {
			return false
		}
	}
	return true
}

// appendNode and appendEdge write a fact's content for hashing: fields in
// a fixed order, properties by sorted key, each value typed, so equal facts
// give equal bytes without the cost of JSON encoding every sync.
func appendNode(buf []byte, n Node) []byte {
	buf = append(buf, 'N')
	for _, s := range []string{n.ID, n.Label, n.Key, n.Source} {
		buf = appendField(buf, s)
	}
	return appendProps(buf, n.Props)
}

func appendEdge(buf []byte, e Edge) []byte {
	buf = append(buf, 'E')
	for _, s := range []string{e.From, e.Type, e.To, e.Source} {
		buf = appendField(buf, s)
	}
	return appendProps(buf, e.Props)
}

func appendField(buf []byte, s string) []byte {
	buf = strconv.AppendInt(buf, int64(len(s)), 10)
	buf = append(buf, ':')
	return append(buf, s...)
}

func appendProps(buf []byte, p map[string]any) []byte {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		buf = appendField(buf, k)
		buf = appendValue(buf, p[k])
	}
	return append(buf, '\n')
}

func appendValue(buf []byte, v any) []byte {
	switch x := v.(type) {
	case string:
		return appendField(append(buf, 's'), x)
	case int:
		return strconv.AppendInt(append(buf, 'i'), int64(x), 10)
	case bool:
		return strconv.AppendBool(append(buf, 'b'), x)
	case float64:
		return strconv.AppendFloat(append(buf, 'f'), x, 'g', -1, 64)
	default: // seed rows: nested JSON values
		raw, err := json.Marshal(x)
		if err != nil {
			raw = []byte(fmt.Sprintf("%#v", x)) // unmarshalable values fail later, in Apply
		}
		return appendField(append(buf, 'j'), string(raw))
	}
}
