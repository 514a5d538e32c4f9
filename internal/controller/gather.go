package controller

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/patch"
	"github.com/mcpc/mcpc/internal/store"
	"github.com/mcpc/mcpc/schemas"
)

// submissionMarker stands in input.args for the plan carried as
// input.submission (docs/policy-input.md).
const submissionMarker = "(see input.submission)"

// prefetch runs retrieval and git before the turn's transaction: indexing
// writes to the same database, ranking can take tens of milliseconds and git
// (status on a large repository) seconds, none of which should hold the lock
// other processes wait on.
func (c *Controller) prefetch(ctx context.Context, t *turn) {
	switch t.req.Verb {
	case "run_sandboxed_code":
		c.prefetchSandboxedCode(ctx, t)
	case "apply_code_patch", "run_automation_recipe":
		t.gitRev = gitHead(c.root) // the revision the trace ledger records
	case "initialize_work":
		requirements := c.startRequirements(ctx, t.req.OriginalPrompt, stringList(t.args["lexemes"]), attachmentText(t.args["attachments"]))
		reportProgress(ctx, 0, 3, "refreshing the code index")
		c.refreshIndex(ctx)
		t.gitRev = repoSnapshotID(c.root, c.index) // outside git, a hash of the refreshed index
		t.requirements = requirements()
		reportProgress(ctx, 1, 3, "ranking files for the prompt")
		cands, err := c.index.Rank(ctx, RankQuery{
			Prompt: t.req.OriginalPrompt, Lexemes: stringList(t.args["lexemes"]),
			Attachments: append(attachmentText(t.args["attachments"]), t.requirements.rankText...), Limit: c.cfg.Pack.MaxFiles * 2,
			MemoryAnchors: c.memoryAnchors(ctx),
		})
		if err != nil {
			c.log.Warn().Err(err).Msg("ranking failed")
		}
		cands = c.withProofChains(ctx, t, cands)
		c.markSecrets(ctx, cands)
		t.in.Candidates = orEmpty(cands)
		reportProgress(ctx, 2, 3, "deciding the context pack")
	case "escalate":
		if t.req.WorkID == "" {
			return
		}
		exclude := map[string]bool{}
		_ = c.store.View(ctx, func(tx *store.Tx) error {
			w, err := tx.Work(ctx, t.req.WorkID)
			if err != nil {
				return err
			}
			var p packSummary
			_ = json.Unmarshal(w.Pack, &p)
			for _, f := range p.Files {
				exclude[f] = true
			}
			return nil
		})
		reportProgress(ctx, 0, 3, "refreshing the code index")
		c.refreshIndex(ctx)
		reportProgress(ctx, 1, 3, "searching for the need")
		cands, err := c.index.Search(ctx, escalationNeed(t.args), exclude, c.cfg.Pack.EscalateMaxFiles*2)
		if err != nil {
			c.log.Warn().Err(err).Msg("escalation search failed")
		}
		c.markSecrets(ctx, cands)
		t.in.Candidates = orEmpty(cands)
		reportProgress(ctx, 2, 3, "deciding what the pack gains")
	}
}

// orEmpty keeps a list that is absent (nil) an empty list in JSON: policy
// and clients read [] rather than null.
func orEmpty[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}

// escalationNeed joins the need with every requested evidence detail.
func escalationNeed(args map[string]any) string {
	parts := []string{}
	if s, ok := args["need"].(string); ok {
		parts = append(parts, s)
	}
	list, _ := args["requestedEvidence"].([]any)
	for _, item := range list {
		if m, ok := item.(map[string]any); ok {
			if d, ok := m["detail"].(string); ok {
				parts = append(parts, d)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// attachmentProblems reports inline attachments that do not decode, so
// policy refuses the turn before a work is created.
func attachmentProblems(v any) []schemas.Problem {
	list, _ := v.([]any)
	var out []schemas.Problem
	for i, item := range list {
		m, _ := item.(map[string]any)
		ref, _ := m["ref"].(string)
		if b64, ok := strings.CutPrefix(ref, "inline:base64:"); ok {
			if _, err := base64.StdEncoding.DecodeString(b64); err != nil {
				out = append(out, schemas.Problem{Path: fmt.Sprintf("args.attachments[%d].ref", i), Message: "inline attachment is not valid base64"})
			}
		}
	}
	return out
}

// attachmentText is what retrieval may read of attachments: captions and
// refs, never inline content.
func attachmentText(v any) []string {
	list, _ := v.([]any)
	out := []string{}
	for _, item := range list {
		m, _ := item.(map[string]any)
		for _, k := range []string{"caption", "ref"} {
			if s, ok := m[k].(string); ok && !strings.HasPrefix(s, "inline:") {
				out = append(out, s)
			}
		}
	}
	return out
}

func stringList(v any) []string {
	list, _ := v.([]any)
	out := []string{}
	for _, item := range list {
		if s, ok := item.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// configFactsOf is what policy reads of the configuration. The
// configuration does not change under a Controller, so it is built once;
// decisions only read it.
func configFactsOf(cfg *config.Config) configFacts {
	f := configFacts{
		EvidencePolicy: cfg.EvidencePolicy, ValidationCommands: []string{}, ValidationCovers: map[string][]string{},
		ValidationRequired: []string{}, ScratchMaxBytes: cfg.Scratch.MaxBytes, Codemods: map[string]patch.Spec{},
		Pack:                packLimits{MaxFiles: cfg.Pack.MaxFiles, MaxBytes: cfg.Pack.MaxBytes, EscalateMaxFiles: cfg.Pack.EscalateMaxFiles},
		SideEffectExecutors: []string{gitCommit},
	}
	if f.EvidencePolicy == nil {
		f.EvidencePolicy = map[string]any{}
	}
	for id, cmd := range cfg.Validation.Commands {
		f.ValidationCommands = append(f.ValidationCommands, id)
		if len(cmd.Covers) > 0 {
			f.ValidationCovers[id] = cmd.Covers
		}
		if cmd.Required {
			f.ValidationRequired = append(f.ValidationRequired, id)
		}
	}
	slices.Sort(f.ValidationCommands) // the same input for the same config
	slices.Sort(f.ValidationRequired)
	return f
}

// gather adds the facts the verb's decision needs.
func (c *Controller) gather(ctx context.Context, tx *store.Tx, t *turn) error {
	in := &t.in
	in.Config = c.configFacts
	in.Sandbox = c.sandboxFacts
	in.Requirements = c.requirementFactsOf(t)
	switch t.req.Verb {
	case "initialize_work":
		in.Prompt = t.req.OriginalPrompt
		in.Lexemes = stringList(t.args["lexemes"])
		in.Request.Errors = append(in.Request.Errors, attachmentProblems(t.args["attachments"])...)
	case "read_file_lines", "lookup_symbol_definition", "trace_symbol_graph":
		c.resolveArg(t, "targetFile", false)
	case "write_scratch_file":
		if t.work != nil {
			if s, ok := t.args["relativePath"].(string); ok {
				root := workDir(t.work.ID) + "/scratch"
				scratch, err := c.paths.Sub(root)
				if err != nil {
					return err
				}
				t.scratch = scratch // the writer uses the resolver the facts came from
				in.Paths["relativePath"] = scratchFacts(root, scratch.Resolve(s))
			}
		}
	case "submit_execution_plan":
		if m, ok := t.args["planGraph"].(map[string]any); ok {
			in.Submission = m
			in.SubmissionFacts.CycleNodes = cycleNodes(m)
			// The plan travels once, as input.submission: converting a large
			// plan to policy values twice was most of a plan turn's cost.
			in.Args = maps.Clone(t.args)
			in.Args["planGraph"] = submissionMarker
		}
	case "execute_gated_side_effect":
		if t.work != nil {
			approved, err := tx.ApprovedGates(ctx, t.work.ID)
			if err != nil {
				return err
			}
			in.Gates.Approved = approved
		}
	case "apply_code_patch":
		c.resolveArg(t, "targetFile", true)
		pf, ok := in.Paths["targetFile"]
		if t.work != nil && ok && pf.Canonical != "" {
			reads, err := tx.Reads(ctx, t.work.ID, pf.Canonical)
			if err != nil {
				return err
			}
			in.Reads = reads
			c.hashOwnFile(t)
		}
		c.dryRunPatch(ctx, t)
	}
	return c.gatherGuards(ctx, tx, t)
}

// resolveArg records pathscope's facts for a path argument; write verbs also
// get the current content hash for the stale-read check.
func (c *Controller) resolveArg(t *turn, name string, withHash bool) {
	s, ok := t.args[name].(string)
	if !ok {
		return
	}
	pf := pathFacts{Facts: c.paths.Resolve(s)}
	// Only a pack file's hash: of any other, the hash is a fact about
	// content the agent may not see.
	if withHash && pf.Valid && pf.Regular && slices.Contains(t.in.Pack.Files, pf.Canonical) {
		if h, err := c.paths.HashFile(pf.Canonical); err == nil {
			pf.Hash = h
		}
	}
	t.in.Paths[name] = pf
}

// hashOwnFile hashes a target outside the pack that this work itself wrote
// or read (a file a create node made): its hash tells the work nothing it
// did not know, and pack-scope needs it to let the work edit that file again.
func (c *Controller) hashOwnFile(t *turn) {
	pf := t.in.Paths["targetFile"]
	if _, known := t.in.Reads[pf.Canonical]; !known || pf.Hash != "" || !pf.Valid || !pf.Regular {
		return
	}
	if h, err := c.paths.HashFile(pf.Canonical); err == nil {
		pf.Hash = h
		t.in.Paths["targetFile"] = pf
	}
}

// dryRunPatch tries the edits on the file's current content so policy can
// refuse a patch that would not apply, before anything is written.
func (c *Controller) dryRunPatch(ctx context.Context, t *turn) {
	pf, ok := t.in.Paths["targetFile"]
	edits, err := patch.ParseEdits(t.args["edits"])
	t.in.Patch = patchFacts{Problems: []schemas.Problem{}, Edits: len(edits), Elements: []elementFact{}, Contracts: map[string]contractFacts{}}
	if err != nil {
		t.in.Patch.Problems = append(t.in.Patch.Problems, schemas.Problem{Path: "args.edits", Message: err.Error()})
		return
	}
	if !ok {
		return // the scope rules explain why; there is nothing to try
	}
	content, try, err := c.patchSource(t, pf)
	if !try {
		return
	}
	if err != nil {
		t.in.Patch.Problems = append(t.in.Patch.Problems, schemas.Problem{Path: "args.targetFile", Message: err.Error()})
		return
	}
	after, probs := c.applyEdits(ctx, pf.Canonical, string(content), edits)
	if len(probs) > 0 {
		t.in.Patch.Problems = append(t.in.Patch.Problems, probs...)
		return
	}
	t.in.Patch.Applicable = true
	t.dryRun = &dryRun{before: content, after: after}
	c.gatherContractFacts(ctx, t, pf.Canonical)
}
