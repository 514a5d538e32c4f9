package ledger

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// chain seals n records and returns their lines (each with its newline)
// and the final head.
func chain(t *testing.T, n int) ([][]byte, Head) {
	t.Helper()
	head := Head{Hash: Genesis}
	var lines [][]byte
	for i := range n {
		rec := Record{ID: fmt.Sprintf("id-%d", i), Timestamp: "2026-11-25T00:00:00Z", IntentID: "INT-1",
			MutationClass: ASTRefactor, VCS: VCS{RevisionID: "abc"},
			Files: []File{{RelativePath: fmt.Sprintf("src/f%d.ts", i), Conversations: []Conversation{}}}}
		line, next, err := Seal(rec, head)
		if err != nil {
			t.Fatal(err)
		}
		lines, head = append(lines, line), next
	}
	return lines, head
}

func TestVerify(t *testing.T) {
	lines, head := chain(t, 4)
	join := func(ls ...[]byte) []byte { return bytes.Join(ls, nil) }
	tests := []struct {
		note   string
		ledger []byte
		anchor Head
		line   int // 0: verifies
		kind   string
	}{
		{note: "empty ledger", ledger: nil},
		{note: "intact", ledger: join(lines...), anchor: head},
		{note: "intact, ahead of its anchor", ledger: join(lines...), anchor: Head{Seq: 2, Hash: hashAtLine(t, lines[1])}},
		{note: "rewritten record", ledger: join(lines[0], bytes.Replace(lines[1], []byte("f1.ts"), []byte("f9.ts"), 1), lines[2], lines[3]),
			line: 2, kind: KindRewritten},
		{note: "removed record", ledger: join(lines[0], lines[2], lines[3]), line: 2, kind: KindBrokenChain},
		{note: "inserted copy", ledger: join(lines[0], lines[1], lines[1], lines[2], lines[3]), line: 3, kind: KindBrokenChain},
		{note: "reordered records", ledger: join(lines[0], lines[2], lines[1], lines[3]), line: 2, kind: KindBrokenChain},
		{note: "removed first record", ledger: join(lines[1], lines[2], lines[3]), line: 1, kind: KindBrokenChain},
		{note: "seal stripped", ledger: join(lines[0], []byte(`{"seq":2}`+"\n")), line: 2, kind: KindMalformed},
		{note: "not JSON", ledger: join(lines[0], []byte("garbage\n")), line: 2, kind: KindMalformed},
		{note: "torn last line", ledger: join(lines[0], lines[1][:len(lines[1])-1]), line: 2, kind: KindMalformed},
		{note: "removed tail", ledger: join(lines[0], lines[1]), anchor: head, line: 3, kind: KindTruncated},
		{note: "whole ledger removed", ledger: nil, anchor: head, line: 1, kind: KindTruncated},
		{note: "legacy records before the chain", ledger: join([]byte(`{"id":"old-1","intent_id":"w"}`+"\n"), lines[0], lines[1]), anchor: Head{Seq: 2, Hash: hashAtLine(t, lines[1])}},
		{note: "unsealed line inside the chain", ledger: join(lines[0], []byte(`{"id":"x"}`+"\n"), lines[1]), line: 2, kind: KindMalformed},
		{note: "legacy prefix, tail removed", ledger: join([]byte(`{"id":"old-1"}`+"\n"), lines[0]), anchor: head, line: 3, kind: KindTruncated},
		{note: "tail re-sealed after a rewrite", ledger: resealFrom(t, lines, 2), anchor: head, line: 4, kind: KindTruncated},
	}
	for _, tc := range tests {
		t.Run(tc.note, func(t *testing.T) {
			rep, err := Verify(bytes.NewReader(tc.ledger), tc.anchor)
			if err != nil {
				t.Fatal(err)
			}
			if tc.line == 0 {
				if !rep.OK || rep.Problem != nil {
					t.Fatalf("want verified, got %+v", rep.Problem)
				}
				return
			}
			if rep.OK || rep.Problem == nil {
				t.Fatalf("want line %d %s, got verified", tc.line, tc.kind)
			}
			if rep.Problem.Line != tc.line || rep.Problem.Kind != tc.kind {
				t.Fatalf("want line %d %s, got %+v", tc.line, tc.kind, rep.Problem)
			}
			if !strings.Contains(rep.Problem.Message, fmt.Sprint(tc.line)) {
				t.Errorf("the message does not name line %d: %s", tc.line, rep.Problem.Message)
			}
		})
	}
}

func hashAtLine(t *testing.T, line []byte) string {
	t.Helper()
	h, err := LastHead(line)
	if err != nil {
		t.Fatal(err)
	}
	return h.Hash
}

// resealFrom rewrites record i (0-based) and re-seals it and every later
// record, as a forger who knows the scheme would: the chain verifies, only
// the store's anchor catches it.
func resealFrom(t *testing.T, lines [][]byte, i int) []byte {
	t.Helper()
	out := bytes.Join(lines[:i], nil)
	head, err := LastHead(out)
	if err != nil {
		t.Fatal(err)
	}
	for j := i; j < len(lines); j++ {
		rec := Record{ID: fmt.Sprintf("forged-%d", j), IntentID: "INT-1", MutationClass: ASTRefactor}
		line, next, err := Seal(rec, head)
		if err != nil {
			t.Fatal(err)
		}
		out, head = append(out, line...), next
	}
	return out
}

func TestLastHead(t *testing.T) {
	lines, head := chain(t, 3)
	tests := []struct {
		note string
		tail []byte
		want Head
		err  bool
	}{
		{note: "empty", tail: nil, want: Head{Hash: Genesis}},
		{note: "whole file", tail: bytes.Join(lines, nil), want: head},
		{note: "last line only", tail: lines[2], want: head},
		{note: "unsealed last line starts a chain", tail: []byte("{\"id\":\"old\"}\n"), want: Head{Hash: Genesis}},
	}
	for _, tc := range tests {
		t.Run(tc.note, func(t *testing.T) {
			got, err := LastHead(tc.tail)
			if (err != nil) != tc.err || (!tc.err && got != tc.want) {
				t.Fatalf("got %+v, %v; want %+v (error %v)", got, err, tc.want, tc.err)
			}
		})
	}
}
