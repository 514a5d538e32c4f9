package controller

import (
	"context"
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/patch"
	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/internal/store"
	"github.com/mcpc/mcpc/schemas"
)

// submissionMarker stands in input.args for the plan carried as
// input.submission (docs/policy-input.md).
const submissionMarker = "(see input.submission)"

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

// gatherFirst adds the first stage's facts: cheap ones, about the request
// and the paths it names, never about the content of a file.
func (c *Controller) gatherFirst(ctx context.Context, tx *store.Tx, t *turn) error {
	in := &t.in
	in.Config = c.configFacts
	in.Sandbox = c.sandboxFacts
	in.Requirements = c.requirementFactsOf(t)
	switch t.req.Verb {
	case "initialize_work":
		in.Prompt = t.req.OriginalPrompt
		in.Lexemes = stringList(t.args["lexemes"])
		in.Request.addProblems(attachmentProblems(t.args["attachments"])...)
	case "read_file_lines", "lookup_symbol_definition", "trace_symbol_graph":
		c.resolveArg(t, "targetFile")
	case "apply_code_patch":
		c.resolveArg(t, "targetFile")
		if pf, ok := in.Paths["targetFile"]; ok && t.work != nil && c.createTarget(t, pf.Canonical) {
			// The plan's create node may patch its file again once this work
			// wrote it (scope rules compare the hash with the reads).
			if pf.Regular {
				if h, err := c.targetHash(t, pf.Canonical); err == nil {
					pf.Hash = h
					in.Paths["targetFile"] = pf
				}
			}
			reads, err := tx.Reads(ctx, t.work.ID, pf.Canonical)
			if err != nil {
				return err
			}
			in.Reads = reads
		}
	case "search_codebase_text":
		c.searchFacts(t)
	case "write_scratch_file":
		s, ok := t.args["relativePath"].(string)
		if t.work == nil || !ok {
			break
		}
		root := workDir(t.work.ID) + "/scratch"
		scratch, err := c.paths.Sub(root)
		if err != nil {
			// The work's scratch folder cannot be opened without following a
			// link (or at all): a fact, which scratch-scope refuses.
			in.Paths["relativePath"] = pathFacts{Facts: pathscope.Facts{Raw: s, Problems: []string{problemScratchUnavailable}}}
			c.log.Warn().Err(err).Msg("the scratch folder cannot be opened")
			break
		}
		t.scratch = scratch // the writer uses the resolver the facts came from
		in.Paths["relativePath"] = scratchFacts(root, scratch.Resolve(s))
	case "submit_execution_plan":
		if _, ok := t.args["planGraph"].(map[string]any); ok {
			// The plan travels once, as input.submission, and only to the
			// verb stage: converting a large plan to policy values was most
			// of a plan turn's cost.
			in.Args = maps.Clone(t.args)
			in.Args["planGraph"] = submissionMarker
		}
	}
	return nil
}

// problemScratchUnavailable is the path problem of a scratch path whose
// work folder is reached through a link (policies/rego/mcpc/lib/paths).
const problemScratchUnavailable = "scratch_unavailable"

// gatherVerb adds the verb stage's facts, inside the transaction. What costs
// time was prefetched outside the lock (gatherOutsideLock); ctx carries the
// lock's deadline for what must be gathered again.
func (c *Controller) gatherVerb(ctx context.Context, tx *store.Tx, t *turn) error {
	in := &t.in
	switch t.req.Verb {
	case "initialize_work":
		if !t.prefetched { // the preview refused what the transaction allows: rank now, bounded
			t.gitRev = repoSnapshotID(c.root, c.index)
			c.rank(ctx, t)
		}
	case "escalate":
		if !t.prefetched {
			c.searchEscalation(ctx, t, in.Pack.Files)
		}
	case "submit_execution_plan":
		if m, ok := t.args["planGraph"].(map[string]any); ok {
			in.Submission = m
			in.SubmissionFacts = gatherSubmissionFacts(m, c.tagPattern())
		}
	case "execute_gated_side_effect":
		if t.work != nil {
			approved, err := tx.ApprovedGates(ctx, t.work.ID)
			if err != nil {
				return err
			}
			in.Gates.Approved = approved
		}
	case "run_automation_recipe":
		if !t.prefetched {
			t.gitRev = gitHead(c.root)
		}
	case "apply_code_patch":
		if !t.prefetched {
			t.gitRev = gitHead(c.root)
		}
		pf, ok := in.Paths["targetFile"]
		if t.work != nil && ok && pf.Canonical != "" {
			reads, err := tx.Reads(ctx, t.work.ID, pf.Canonical)
			if err != nil {
				return err
			}
			in.Reads = reads
		}
		c.gatherPatch(ctx, t)
	}
	c.gatherDomain(ctx, t) // after the verb's own facts: it reads input.submission
	c.gatherLifecycle(t)
	return c.gatherGuards(ctx, tx, t)
}

// createTarget reports whether canonical is the file the accepted plan's
// create node named by args.planNodeId creates: the plan made it the
// agent's to write, so what is on disk there may be told.
func (c *Controller) createTarget(t *turn, canonical string) bool {
	if t.req.Verb != "apply_code_patch" {
		return false
	}
	id, _ := t.args["planNodeId"].(string)
	n, ok := findNode(t.nodes, id)
	if !ok {
		return false
	}
	node := decodeNode(n)
	return node.Kind == "change" && node.Operation == "create" && node.TargetFile == canonical
}

// resolveArg records pathscope's facts for a path argument. A path outside
// the pack gets only the facts its string determines: nothing an agent
// learns may depend on whether a file it cannot read exists, or what it is.
func (c *Controller) resolveArg(t *turn, name string) {
	s, ok := t.args[name].(string)
	if !ok {
		return
	}
	f := c.paths.Lexical(s)
	if f.Valid && (slices.Contains(t.in.Pack.Files, f.Canonical) || c.createTarget(t, f.Canonical)) {
		f = c.paths.OnDisk(f)
	}
	t.in.Paths[name] = pathFacts{Facts: f}
}
