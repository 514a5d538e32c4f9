package graph

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cespare/xxhash/v2"

	"github.com/mcpc/mcpc/internal/buildid"
)

// A new process's Builder started with no memo, so its first sync after
// any change built every file's group again only to learn the hashes it
// already had: at 47,870 files 0.76 CPU-s of the 3.3 s first turn after
// one edit. A memo entry is a pure function of mcpc's code and the file's
// facts (its fingerprint), and each use still checks its ends against the
// universe and its hash against the store's, so the memo is kept on disk
// (Options.MemoFile) under the build's identity and read back by the first
// sync that has to build. A memo from another build, or one that does not
// decode, is not used: the sync builds as it did without one.

// memoMagic opens a memo file; the number is the format's version.
const memoMagic = "mcpc graph memo 2\n"

// errMemoFormat says a memo file is not one this build wrote.
var errMemoFormat = errors.New("graph: the memo file is not in this build's format")

// memoKey names what a memo is valid for: this build and the options that
// shape a file's group.
func (bl *Builder) memoKey() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s", memoMagic, buildid.Identity(), bl.buildOptions())
	return hex.EncodeToString(h.Sum(nil))
}

// readMemo fills an empty memo from Options.MemoFile, once per Builder. A
// file that is missing is no error; one that does not decode is not used,
// and the sync's summary says why (SyncSummary.MemoError).
func (bl *Builder) readMemo() {
	if bl.memoRead || bl.o.MemoFile == "" {
		return
	}
	bl.memoRead = true
	if len(bl.memo) > 0 {
		return
	}
	data, err := os.ReadFile(bl.o.MemoFile)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	if err == nil {
		var memo map[string]fileMemo
		if memo, err = decodeMemo(data, bl.memoKey()); err == nil {
			bl.memo = memo
			return
		}
	}
	bl.noteMemoErr(fmt.Errorf("graph: read the memo %s: %w", bl.o.MemoFile, err))
}

// writeMemo stores the memo in Options.MemoFile when a build changed it,
// in the background: encoding 47,550 entries is 80-90 ms, which the turn
// waiting for the sync need not wait for (Wait does). A build makes a new
// map and never writes the one it replaces, so the writer and the builds
// after it only read it. The file is written beside and renamed, so a
// reader never sees half a memo.
func (bl *Builder) writeMemo() {
	if !bl.memoDirty || bl.o.MemoFile == "" {
		return
	}
	bl.memoDirty = false
	memo, key := bl.memo, bl.memoKey()
	bl.memoWrites.Wait() // one write at a time: the last one wins
	bl.memoWrites.Go(func() {
		if err := writeFileAtomic(bl.o.MemoFile, encodeMemo(memo, key)); err != nil {
			bl.noteMemoErr(fmt.Errorf("graph: write the memo %s: %w", bl.o.MemoFile, err))
		}
	})
}

// Wait waits for the memo being written to Options.MemoFile; a process
// calls it before it ends.
func (bl *Builder) Wait() { bl.memoWrites.Wait() }

func (bl *Builder) noteMemoErr(err error) {
	bl.memoMu.Lock()
	defer bl.memoMu.Unlock()
	bl.memoErr = err
}

// takeMemoErr returns the memo's last error for a summary, once.
func (bl *Builder) takeMemoErr() string {
	bl.memoMu.Lock()
	defer bl.memoMu.Unlock()
	if bl.memoErr == nil {
		return ""
	}
	msg := bl.memoErr.Error()
	bl.memoErr = nil
	return msg
}

func writeFileAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// encodeMemo writes the magic, the key, a table of the ends' keys (which
// repeat across files: a shared component's file is an end of hundreds),
// the entries with their own strings inline (a file's source is most often
// its FileID: a flag then says so), and an xxhash of it all. Interning
// every string had cost 120-150 ms at 47,550 entries.
func encodeMemo(memo map[string]fileMemo, key string) []byte {
	index := map[string]uint64{}
	var table []string
	for _, m := range memo {
		for _, e := range m.ends {
			if _, ok := index[e.key]; !ok {
				index[e.key] = uint64(len(table))
				table = append(table, e.key)
			}
		}
	}
	str := func(out []byte, s string) []byte { return append(binary.AppendUvarint(out, uint64(len(s))), s...) }
	out := append([]byte(memoMagic), key...)
	out = binary.AppendUvarint(append(out, '\n'), uint64(len(table)))
	for _, s := range table {
		out = str(out, s)
	}
	out = binary.AppendUvarint(out, uint64(len(memo)))
	for f, m := range memo {
		out = binary.LittleEndian.AppendUint64(str(out, f), m.fp)
		if m.source == FileID(f) {
			out = append(out, 0)
		} else {
			out = str(append(out, 1), m.source)
		}
		out = binary.AppendUvarint(str(out, m.hash), uint64(len(m.ends)))
		for _, e := range m.ends {
			present := byte(0)
			if e.present {
				present = 1
			}
			out = append(binary.AppendUvarint(out, index[e.key]), byte(e.kind), present)
		}
	}
	return binary.LittleEndian.AppendUint64(out, xxhash.Sum64(out))
}

// decodeMemo reads what encodeMemo wrote under key.
func decodeMemo(data []byte, key string) (map[string]fileMemo, error) {
	head := memoMagic + key + "\n"
	if len(data) < len(head)+8 || string(data[:len(head)]) != head {
		return nil, errMemoFormat
	}
	body := data[:len(data)-8]
	if xxhash.Sum64(body) != binary.LittleEndian.Uint64(data[len(body):]) {
		return nil, errMemoFormat
	}
	all := string(body) // one copy; every string decoded is a slice of it
	r := &memoReader{b: body, at: len(head)}
	str := func() string {
		n := r.count(0)
		if r.err != nil || n > len(all)-r.at {
			r.err = errMemoFormat
			return ""
		}
		r.at += n
		return all[r.at-n : r.at]
	}
	table := make([]string, r.count(1))
	for i := range table {
		table[i] = str()
	}
	n := r.count(memoEntryBytes)
	memo := make(map[string]fileMemo, n)
	for range n {
		f := str()
		m := fileMemo{fp: r.uint64(), source: FileID(f)}
		if r.byte() == 1 {
			m.source = str()
		}
		m.hash = str()
		if k := r.count(memoEndBytes); k > 0 && r.err == nil {
			m.ends = make([]groupEnd, k)
			for i := range m.ends {
				j := r.count(0)
				if r.err == nil && j >= len(table) {
					r.err = errMemoFormat
				}
				if r.err != nil {
					break
				}
				m.ends[i] = groupEnd{key: table[j], kind: endKind(r.byte()), present: r.byte() == 1}
			}
		}
		if r.err != nil {
			return nil, r.err
		}
		memo[f] = m
	}
	if r.at != len(all) {
		return nil, errMemoFormat
	}
	return memo, nil
}

// memoReader reads a memo's numbers; its first failure sticks.
type memoReader struct {
	b   []byte
	at  int
	err error
}

// The fewest bytes an entry and an end take, by which a count is bounded.
const (
	memoEntryBytes = 12 // file, fingerprint, source flag, hash, number of ends
	memoEndBytes   = 3  // key, kind, present
)

// count reads a length or an index. A count of items of at least each
// bytes can never exceed what is left of the memo (nor a length or an
// index, each 0, its size): a larger one is a broken file, not an
// allocation to make.
func (r *memoReader) count(each int) int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.at:])
	limit := uint64(len(r.b))
	if each > 0 {
		limit = uint64((len(r.b) - r.at - max(n, 0)) / each)
	}
	if n <= 0 || v > limit {
		r.err = errMemoFormat
		return 0
	}
	r.at += n
	return int(v)
}

func (r *memoReader) uint64() uint64 {
	if r.err != nil || len(r.b)-r.at < 8 {
		r.err = errMemoFormat
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b[r.at:])
	r.at += 8
	return v
}

func (r *memoReader) byte() byte {
	if r.err != nil || r.at >= len(r.b) {
		r.err = errMemoFormat
		return 0
	}
	r.at++
	return r.b[r.at-1]
}
