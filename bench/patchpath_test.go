package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/ledger"
	"github.com/mcpc/mcpc/internal/patch"
	"github.com/mcpc/mcpc/internal/pathscope"
)

// benchPatchPath measures issue 18's 5 ms target on the 2,000-line
// template: the patch's own path without the turn's policy evaluations and
// store transaction (BenchmarkPatchTurn* has those). One op is the edits
// under a deadline, the component contract check of the result (the custom
// tags found, the contracted elements of the before and after contents
// read and compared), the before and after hashes, and the ledger append as
// the controller makes it: the lock, the last record read back from the
// file's tail, the new record sealed to it and appended.
func benchPatchPath(b *testing.B, edits func(i int) []patch.Edit) {
	ws := b.TempDir()
	paths, err := pathscope.New(ws)
	if err != nil {
		b.Fatal(err)
	}
	const file, trace, lock = "big.component.html", ".orchestration/agent_trace.jsonl", ".ai/tmp/ledger.lock"
	if err := os.MkdirAll(filepath.Join(ws, ".orchestration"), 0o755); err != nil {
		b.Fatal(err)
	}
	contracted := map[string]bool{"sdf-alert": true} // the tags the graph has contracts for
	before := bigTemplate()
	b.SetBytes(int64(len(before)))
	var cpu int64
	for i := 0; b.Loop(); i++ {
		start := cpuTime()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		beforeHash := sha256.Sum256([]byte(before))
		after, probs := patch.Apply(ctx, before, edits(i), patch.Options{File: file})
		if len(probs) > 0 {
			b.Fatal(probs)
		}
		want := map[string]bool{}
		for _, t := range patch.CustomTags(after) {
			if contracted[t] {
				want[t] = true
			}
		}
		bs, err := patch.TemplateElements(ctx, file, before, want)
		if err != nil {
			b.Fatal(err)
		}
		as, err := patch.TemplateElements(ctx, file, after, want)
		if err != nil {
			b.Fatal(err)
		}
		_ = patch.ChangedElements(bs, as)
		cancel()
		afterHash := sha256.Sum256([]byte(after))
		appendRecord(b, paths, trace, lock, hex.EncodeToString(beforeHash[:]), hex.EncodeToString(afterHash[:]))
		before = after
		cpu += cpuTime() - start
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}

// appendRecord appends one ledger record as the controller's appendLedger
// does.
func appendRecord(b *testing.B, paths *pathscope.Resolver, trace, lock, beforeHash, afterHash string) {
	unlock, err := paths.Lock(lock)
	if err != nil {
		b.Fatal(err)
	}
	defer unlock()
	head := ledger.Head{Hash: ledger.Genesis}
	if tail, err := paths.ReadTail(trace, 4<<10); err == nil {
		if head, err = ledger.LastHead(tail); err != nil {
			b.Fatal(err)
		}
	} else if !os.IsNotExist(err) {
		b.Fatal(err)
	}
	rec := ledger.Record{ID: ledger.NewID(), Timestamp: time.Now().UTC().Format(time.RFC3339Nano),
		IntentID: "work-1", MutationClass: ledger.ASTRefactor, WorkID: "work-1", VCS: ledger.VCS{RevisionID: beforeHash},
		Files: []ledger.File{{RelativePath: "big.component.html", Conversations: []ledger.Conversation{{
			URL: "work-1", Contributor: ledger.Contributor{EntityType: "AI", ModelIdentifier: "agent-1"},
			Ranges:  []ledger.Range{{StartLine: 3, EndLine: 1993, ContentHash: "sha256:" + afterHash}},
			Related: []ledger.Related{{Type: "plan_node", Value: "change-001"}},
		}}}}}
	line, _, err := ledger.Seal(rec, head)
	if err != nil {
		b.Fatal(err)
	}
	if err := paths.AppendFile(trace, line, true); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPatchPathRewriteTemplateTag2000Lines: rewrite_template_tag over
// the 200 elements with their prop mappings, toggled back and forth; the
// contract check then reads 200 changed elements every other op.
func BenchmarkPatchPathRewriteTemplateTag2000Lines(b *testing.B) {
	benchPatchPath(b, func(i int) []patch.Edit {
		from, to, props := "adp-alert", "sdf-alert", map[string]any{"type": "severity", "closed": "dismissed"}
		if i%2 == 1 {
			from, to, props = to, from, map[string]any{"severity": "type", "dismissed": "closed"}
		}
		return []patch.Edit{{Op: "codemod", Codemod: "rewrite_template_tag", Params: map[string]any{"fromTag": from, "toTag": to, "propMappings": props}}}
	})
}

// BenchmarkPatchPathReplaceText2000Lines: one replace_text edit on the
// template, toggled back and forth.
func BenchmarkPatchPathReplaceText2000Lines(b *testing.B) {
	benchPatchPath(b, func(i int) []patch.Edit {
		from, to := "messages[150]", "notes[150]"
		if i%2 == 1 {
			from, to = to, from
		}
		return []patch.Edit{{Op: "replace_text", Find: from, Replace: to}}
	})
}
