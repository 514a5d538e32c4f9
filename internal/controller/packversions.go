package controller

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpc/mcpc/internal/store"
)

// A work's pack document is versioned: initialize_work writes version 0,
// context-pack.json, and the escalate that makes the pack's Nth escalation
// writes version N, context-pack.vN.json. The works row's summary names the
// current version (ref, hash), and the store keeps that version's bytes
// with it (pack_docs), committed in the same transaction. The file is
// written after the commit, under a name no earlier version had, so:
//   - no turn writes the document under the store's lock;
//   - a turn that reads the pack under the lock (a concurrent escalate,
//     in this process or another) reads the store's copy, never a file
//     that may not be written yet, so it cannot grow an older version and
//     lose an escalation's additions;
//   - two escalates' writes after their commits never race on one name:
//     each version's file is written whole, once;
//   - a process that dies between the commit and the write leaves a work
//     whose current file is missing; the next process writes it from the
//     store's copy when it starts (RestoreWorkFiles), and an escalate never
//     needs it.
// Versions older than the previous one are swept once a newer one is
// written: an agent that was just told the previous ref can still read it.

// packRef is the worktree path of version of a work's pack document.
func packRef(workID string, version int) string {
	if version == 0 {
		return workDir(workID) + "/context-pack.json"
	}
	return fmt.Sprintf("%s/context-pack.v%d.json", workDir(workID), version)
}

// packVersionOf is the version a pack document's file name says, or false
// for a name that is not one's.
func packVersionOf(name string) (int, bool) {
	if name == "context-pack.json" {
		return 0, true
	}
	n, ok := strings.CutPrefix(name, "context-pack.v")
	if n, ok = strings.CutSuffix(n, ".json"); !ok {
		return 0, false
	}
	v, err := strconv.Atoi(n)
	return v, err == nil && v > 0 && strconv.Itoa(v) == n
}

// committedPack is the work's pack document as committed: the store's copy
// when it is the version the row names, else (a work made before the store
// kept them) the file the row names.
func (c *Controller) committedPack(ctx context.Context, tx *store.Tx, workID string, sum packSummary) (*packDoc, error) {
	ref, raw, err := tx.PackDoc(ctx, workID)
	switch {
	case err == nil && ref == sum.Ref:
	case err == nil, errors.Is(err, store.ErrNotFound):
		if raw, err = c.paths.ReadFile(sum.Ref, maxPackDocBytes); err != nil {
			return nil, err
		}
	default:
		return nil, err
	}
	return decodePack(raw, sum)
}

// decodePack decodes a pack document. The store's summary stays the
// authority on scope: a document edited on disk cannot widen what the
// agent may see.
func decodePack(raw []byte, sum packSummary) (*packDoc, error) {
	p := &packDoc{}
	if err := json.Unmarshal(raw, p); err != nil {
		return nil, err
	}
	p.Hash, p.Files, p.Outcome, p.Escalations = sum.Hash, sum.Files, sum.Outcome, sum.Escalations
	p.Ref = sum.Ref
	p.Ranking = slices.DeleteFunc(p.Ranking, func(r rankEntry) bool { return !slices.Contains(sum.Files, r.File) })
	return p, nil
}

// commitPack encodes p as the work's current pack document, puts it in the
// work's row and the store's copy, and leaves the file to write once the
// transaction committed (publishPack).
func (c *Controller) commitPack(ctx context.Context, tx *store.Tx, w *store.Work, p *packDoc) ([]byte, error) {
	raw, err := encodePack(p)
	if err != nil {
		return nil, err
	}
	w.Pack = p.MarshalStored()
	if err := tx.PutWork(ctx, w); err != nil {
		return nil, err
	}
	return raw, tx.PutPackDoc(ctx, w.ID, p.Ref, raw)
}

// publishPack writes a committed pack document's file (temporary file,
// fsync, rename) and sweeps the versions before the previous one. A write
// that fails is the turn's recorded EXEC_FAILED; the store keeps the
// document, and the next process to start writes it.
func (c *Controller) publishPack(ctx context.Context, t *turn, p *packDoc, raw []byte) bool {
	failpoint("pack:committed") // the crash tests' process dies with the pack committed, unwritten
	if err := c.paths.WriteFileAtomic(p.Ref, raw, true); err != nil {
		c.log.Warn().Err(err).Str("pack", p.Ref).Msg("context pack not written")
		c.failAfterTx(ctx, t, "io_error", "", "the work's context pack could not be written")
		return false
	}
	c.sweepPacks(p.WorkID, p.Escalations)
	return true
}

// sweepPacks removes a work's pack documents older than the one before
// current.
func (c *Controller) sweepPacks(workID string, current int) {
	names, err := c.paths.ReadDirNames(workDir(workID))
	if err != nil {
		return
	}
	for _, n := range names {
		if v, ok := packVersionOf(n); ok && v < current-1 {
			if err := c.paths.Remove(workDir(workID) + "/" + n); err != nil {
				c.log.Warn().Err(err).Str("pack", n).Msg("an old pack version was not swept")
			}
		}
	}
}

// RestoreWorkFiles writes what a process that died between a commit and
// the writes after it left missing, from what the store holds, and says
// how many files it wrote: a work's current pack document (from the
// store's copy) and initialize_work's inline attachments (from the
// request its decision record holds). serve runs it when it starts.
func (c *Controller) RestoreWorkFiles(ctx context.Context) (int, error) {
	written := 0
	err := c.eachWorkFolder(ctx, "attachments", func(w string, have []string) error {
		var ref string
		var raw []byte
		err := c.store.View(ctx, func(tx *store.Tx) (err error) {
			ref, raw, err = tx.PackDoc(ctx, w)
			if errors.Is(err, store.ErrNotFound) {
				return nil // a work from before the store kept its pack
			}
			return err
		})
		if err != nil || raw == nil {
			return err
		}
		if h, err := c.paths.HashFile(ref); err != nil || h != sha256Hex(raw) {
			if err := c.paths.WriteFileAtomic(ref, raw, true); err != nil {
				c.log.Warn().Err(err).Str("pack", ref).Msg("context pack not restored")
			} else {
				written++
			}
		}
		n, err := c.restoreAttachments(ctx, w, raw, have)
		written += n
		return err
	})
	return written, err
}

// restoreAttachments writes the attachments of a work's pack whose files
// are missing, decoded again from initialize_work's request (the input of
// the work's first decision record, read only when one is missing).
func (c *Controller) restoreAttachments(ctx context.Context, workID string, pack []byte, have []string) (int, error) {
	// serve runs this for every work the store holds, and most packs have
	// no attachment in the work's folder: a pack of 40 ranked files is
	// tens of KB of JSON, and decoding them all was 0.1 CPU-s of every
	// start at 70 works, beside the first turn. An attachment restored
	// here has its folder in its ref, a JSON string encoding/json wrote
	// with '/' unescaped, so a pack without that text has none.
	inWorkDir := workDir(workID) + "/attachments/"
	if !bytes.Contains(pack, []byte(inWorkDir)) {
		return 0, nil
	}
	var doc struct {
		Attachments []attachment `json:"attachments"`
	}
	if json.Unmarshal(pack, &doc) != nil {
		return 0, nil
	}
	missing := slices.DeleteFunc(doc.Attachments, func(a attachment) bool {
		name, inWork := strings.CutPrefix(a.Ref, inWorkDir)
		return !inWork || slices.Contains(have, name)
	})
	if len(missing) == 0 {
		return 0, nil
	}
	var first []byte
	err := c.store.View(ctx, func(tx *store.Tx) (err error) {
		first, err = tx.Decision(ctx, workID, 1)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	var rec struct {
		Input struct {
			Args struct {
				Attachments []any `json:"attachments"`
			} `json:"args"`
		} `json:"input"`
	}
	if json.Unmarshal(first, &rec) != nil {
		return 0, nil
	}
	inline := inlineAttachments(workID, rec.Input.Args.Attachments)
	n := 0
	for _, a := range missing {
		data, ok := inline[a.Ref]
		if !ok {
			continue
		}
		if err := c.writeState(a.Ref, data); err != nil {
			c.log.Warn().Err(err).Str("attachment", a.Ref).Msg("attachment not restored")
			continue
		}
		n++
	}
	return n, nil
}

// inlineAttachments are the decoded contents of a request's inline
// attachments, by the ref storeAttachments gives each.
func inlineAttachments(workID string, list []any) map[string][]byte {
	out := map[string][]byte{}
	for i, item := range list {
		m, _ := item.(map[string]any)
		typ, _ := m["type"].(string)
		ref, _ := m["ref"].(string)
		if data, inline, err := inlineContent(ref); inline && err == nil {
			out[attachmentRef(workID, typ, i)] = data
		}
	}
	return out
}
