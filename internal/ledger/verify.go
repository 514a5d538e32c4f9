package ledger

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Problem kinds Verify reports.
const (
	// KindMalformed: the line is not a sealed JSON record (or is torn).
	KindMalformed = "malformed"
	// KindRewritten: the line's content does not match its own hash.
	KindRewritten = "rewritten"
	// KindBrokenChain: the line does not follow the line before it (a
	// record was removed, inserted or moved).
	KindBrokenChain = "broken-chain"
	// KindTruncated: the store's anchor says records are missing at the end,
	// or that the record at the anchor was replaced.
	KindTruncated = "truncated"
)

// Problem is the first bad line of a ledger.
type Problem struct {
	Line    int    `json:"line"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Report is Verify's finding.
type Report struct {
	OK      bool `json:"ok"`
	Records int  `json:"records"`
	// Legacy counts the unsealed lines before the chain (records written
	// before the ledger was chained): they are not verified.
	Legacy  int      `json:"legacy"`
	Head    Head     `json:"head"`
	Problem *Problem `json:"problem,omitempty"`
}

// maxLine bounds one record; a longer line is malformed.
const maxLine = 16 << 20

// Verify reads a ledger and checks every line's seal and its link to the
// line before; it stops at the first bad line. anchor is the head the store
// recorded when it last appended (zero when there is none): a ledger with
// fewer records lost its tail, and one whose record at the anchored seq has
// another hash was rewritten from there on, seals recomputed. A ledger
// ahead of its anchor is fine: an append whose turn rolled back keeps its
// record, so the anchor is a lower bound.
func Verify(r io.Reader, anchor Head) (Report, error) {
	rep := Report{Head: Head{Hash: Genesis}}
	br := bufio.NewReaderSize(r, 64<<10)
	for line := 1; ; line++ {
		raw, err := readLine(br)
		if err == io.EOF {
			break
		}
		if err != nil {
			return rep, err
		}
		if rep.Records == 0 && legacy(raw) {
			rep.Legacy++
			continue
		}
		seq := rep.Records + 1
		if p := check(raw, line, seq, rep.Head); p != nil {
			rep.Problem = p
			return rep, nil
		}
		_, claimed, _ := open(bytes.TrimSuffix(raw, []byte("\n")))
		rep.Head = Head{Seq: seq, Hash: claimed}
		rep.Records = seq
		if seq == anchor.Seq && claimed != anchor.Hash {
			rep.Problem = &Problem{Line: line, Kind: KindTruncated, Message: fmt.Sprintf(
				"line %d's hash is %s but the store recorded %s when it was appended: the ledger was rewritten from there on", line, claimed, anchor.Hash)}
			return rep, nil
		}
	}
	if rep.Records < anchor.Seq {
		line := rep.Legacy + rep.Records + 1
		rep.Problem = &Problem{Line: line, Kind: KindTruncated, Message: fmt.Sprintf(
			"line %d: the ledger ends at record %d but the store saw record %d appended: records %d-%d were removed",
			line, rep.Records, anchor.Seq, rep.Records+1, anchor.Seq)}
		return rep, nil
	}
	rep.OK = true
	return rep, nil
}

// readLine returns the next line with its newline (a last line without one
// is returned as is, and check reports it torn).
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxLine {
			// Keep reporting the line, not the reader's limit.
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
			return buf[:maxLine], nil
		}
		switch err {
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if len(buf) == 0 {
				return nil, io.EOF
			}
			return buf, nil
		default:
			return buf, err
		}
	}
}

// legacy reports whether raw is a complete line holding a JSON object
// without the chain's members: a record from before the ledger was chained.
func legacy(raw []byte) bool {
	if !bytes.HasSuffix(raw, []byte("\n")) {
		return false
	}
	var rec map[string]json.RawMessage
	if json.Unmarshal(raw, &rec) != nil {
		return false
	}
	_, seq := rec["seq"]
	_, prev := rec["prevHash"]
	_, hash := rec["hash"]
	return !seq && !prev && !hash
}

// check judges one line, which should hold record seq, against the head of
// the records before it.
func check(raw []byte, line, seq int, prev Head) *Problem {
	bad := func(kind, format string, args ...any) *Problem {
		return &Problem{Line: line, Kind: kind, Message: fmt.Sprintf(format, args...)}
	}
	if !bytes.HasSuffix(raw, []byte("\n")) {
		return bad(KindMalformed, "line %d is torn: it does not end with a newline", line)
	}
	raw = raw[:len(raw)-1]
	body, claimed, ok := open(raw)
	if !ok {
		return bad(KindMalformed, "line %d is not a sealed record (no trailing \"hash\" member)", line)
	}
	var rec struct {
		Seq      *int    `json:"seq"`
		PrevHash *string `json:"prevHash"`
	}
	if err := json.Unmarshal(raw, &rec); err != nil || rec.Seq == nil || rec.PrevHash == nil {
		return bad(KindMalformed, "line %d is not a JSON record with seq and prevHash", line)
	}
	if got := hashOf(body); got != claimed {
		return bad(KindRewritten, "line %d was rewritten: its content hashes to %s, its seal says %s", line, got, claimed)
	}
	if *rec.PrevHash != prev.Hash || *rec.Seq != seq {
		switch {
		case *rec.Seq > seq:
			return bad(KindBrokenChain, "line %d holds record %d: a record before it was removed or moved", line, *rec.Seq)
		case *rec.Seq < seq:
			return bad(KindBrokenChain, "line %d holds record %d: a record was inserted or moved before it", line, *rec.Seq)
		case seq == 1:
			return bad(KindBrokenChain, "line %d holds the first record but its prevHash is %s, not the genesis hash", line, *rec.PrevHash)
		default:
			return bad(KindBrokenChain, "line %d does not follow line %d: its prevHash is %s, line %d's hash is %s", line, line-1, *rec.PrevHash, line-1, prev.Hash)
		}
	}
	return nil
}
