package controller

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"slices"

	"github.com/mcpc/mcpc/internal/store"
)

// A patch replaces its target file inside the turn's transaction. A process
// that dies between the two (kill -9, a crash: a window of milliseconds)
// would leave the file patched and the node pending, with the work's read of
// the file stale; the agent's retry then no longer applies, and the node is
// stuck. So a patch first writes its intent, durably, beside the node's
// artifacts, and removes it once its turn has committed. RecoverPatches
// (serve runs it when it starts) finishes what an intent describes when the
// file holds the patched content and the store does not know it yet, and
// drops the intent otherwise.
type patchIntent struct {
	// Token is the node's run token once the patch is recorded: the intent
	// of a patch whose turn committed matches its node.
	Token  string `json:"token"`
	WorkID string `json:"workId"`
	NodeID string `json:"planNodeId"`
	File   string `json:"targetFile"`
	Before string `json:"before"`
	After  string `json:"after"`
	// Node is the hash of the plan node the patch was made for (its body as
	// accepted): a plan replaced while the intent waited may have a node of
	// the same id that asks for something else.
	Node    string         `json:"node"`
	AgentID string         `json:"agentId"`
	GitRev  string         `json:"gitRev"`
	Summary map[string]any `json:"diffSummary"`
	// IntentID and MutationClass go to the trace ledger (seed 004).
	IntentID      string `json:"intentId,omitempty"`
	MutationClass string `json:"mutationClass,omitempty"`
}

const intentName = "patch.intent.json"

func (in patchIntent) path() string { return artifactDir(in.WorkID, in.NodeID) + "/" + intentName }

func (c *Controller) writeIntent(in patchIntent) error {
	raw, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return c.paths.WriteFileAtomic(in.path(), raw, true) // synced before the target is touched
}

func (c *Controller) dropIntent(in patchIntent) {
	if err := c.paths.Remove(in.path()); err != nil {
		c.log.Warn().Err(err).Str("intent", in.path()).Msg("patch intent not removed; the next start will drop it")
	}
}

// landPatch records a patch whose content is in its target file: the
// node's artifacts and trace ledger entry, its status under the intent's
// token, and the work's read of the file. The node's validations checked
// the content this patch replaced (policy allows patching a patched node
// only after one of them failed): they are to run again, and a run still
// under way no longer counts.
func (c *Controller) landPatch(ctx context.Context, tx *store.Tx, t *turn, in patchIntent) error {
	dir := artifactDir(in.WorkID, in.NodeID)
	c.writeArtifact(dir, "diff.summary.json", in.Summary)
	c.writeArtifact(dir, "result.json", map[string]any{"nodeId": in.NodeID, "targetFile": in.File, "applied": true,
		"before": in.Before, "after": in.After})
	t.intent = intentFacts{ID: in.IntentID, MutationClass: in.MutationClass}
	c.appendTrace(ctx, tx, t, in.File, in.After, in.Summary)
	if err := c.startRun(ctx, tx, t, in.NodeID, statusPatched, in.Token); err != nil {
		return err
	}
	for _, n := range t.nodes {
		if n.Kind == "validate" && n.Status != statusPending && slices.Contains(n.MapsTo, in.NodeID) {
			if err := c.setStatus(ctx, tx, t, n.NodeID, statusPending); err != nil {
				return err
			}
		}
	}
	return tx.RecordRead(ctx, in.WorkID, in.File, in.After)
}

// RecoverPatches settles the patch intents a process left behind when it
// died mid-patch, and says how many patches it recorded. A patch whose turn
// committed, or whose file never received it, is only forgotten.
func (c *Controller) RecoverPatches(ctx context.Context) (int, error) {
	landed := 0
	err := c.eachWorkFolder(ctx, "artifacts", func(w string, nodes []string) error {
		for _, node := range nodes {
			ok, err := c.recoverPatch(ctx, workDir(w)+"/artifacts/"+node+"/"+intentName)
			if err != nil {
				return err
			}
			if ok {
				landed++
			}
		}
		return nil
	})
	return landed, err
}

func (c *Controller) recoverPatch(ctx context.Context, intentPath string) (landed bool, err error) {
	raw, err := c.paths.ReadFile(intentPath, 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	var in patchIntent
	if err != nil || json.Unmarshal(raw, &in) != nil || in.path() != intentPath {
		c.log.Warn().Err(err).Str("intent", intentPath).Msg("unreadable patch intent dropped")
		return false, c.paths.Remove(intentPath)
	}
	err = c.store.Update(ctx, func(tx *store.Tx) error {
		// Under the store's lock: a live process patches only inside its
		// own transaction, so neither the node nor the file moves meanwhile.
		run, err := tx.NodeRun(ctx, in.WorkID, in.NodeID)
		if err != nil || run == in.Token {
			return err
		}
		if hash, err := c.paths.HashFile(in.File); err != nil || hash != in.After {
			return nil // the process died before the file was replaced
		}
		work, err := tx.Work(ctx, in.WorkID)
		if err != nil {
			return err
		}
		nodes, err := tx.Nodes(ctx, in.WorkID, true)
		node, found := findNode(nodes, in.NodeID)
		if err != nil || !found {
			return err
		}
		if in.Node != "" && sha256Hex(node.Body) != in.Node {
			c.log.Warn().Str("work", in.WorkID).Str("node", in.NodeID).Str("file", in.File).
				Msg("a patch whose process died is not recorded: the plan was replaced since, and its node of that id is another")
			return nil
		}
		t := &turn{work: work, agent: &store.Agent{WorkID: in.WorkID, ID: in.AgentID}, nodes: nodes,
			args: map[string]any{"planNodeId": in.NodeID}, gitRev: in.GitRev, result: map[string]any{}}
		landed = true
		return c.landPatch(ctx, tx, t, in)
	})
	if err != nil {
		return false, err
	}
	if landed {
		c.log.Info().Str("work", in.WorkID).Str("node", in.NodeID).Str("file", in.File).
			Msg("recorded a patch whose process died before its turn committed")
	}
	c.dropIntent(in)
	return landed, nil
}
