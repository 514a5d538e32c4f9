package controller

import (
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/mcpc/mcpc/internal/store"
)

// runSideEffect carries out a side_effect node whose commit gate a person
// approved (policy checked the gate). git_commit commits the files this
// work's change nodes patched, and nothing else; other side effect types
// have no executor yet and say so.
func (c *Controller) runSideEffect(ctx context.Context, tx *store.Tx, t *turn) error {
	nodeID, _ := t.args["planNodeId"].(string)
	var node planNode
	var files []string
	for _, n := range t.nodes {
		switch {
		case n.NodeID == nodeID:
			node = decodeNode(n)
		case n.Kind == "change" && n.Status == statusPatched && n.TargetFile != "":
			files = append(files, n.TargetFile)
		}
	}
	if node.SideEffectType != "git_commit" {
		t.result["executed"] = false
		t.result["reason"] = fmt.Sprintf("side effect type %q has no executor in this build (git_commit has)", node.SideEffectType)
		return nil
	}
	if len(files) == 0 {
		t.result["error"] = "no change node has been patched: nothing to commit"
		return nil
	}
	prompt, _, _ := strings.Cut(t.work.Prompt, "\n")
	msg := fmt.Sprintf("%s\n\nmcpc work %s, plan node %s (commit gate %s)", prompt, t.work.ID, nodeID, node.CommitGateID)
	if out, err := c.git(ctx, append([]string{"add", "--"}, files...)...); err != nil {
		t.result["error"] = "git add failed: " + out
		return nil
	}
	if out, err := c.git(ctx, append([]string{"commit", "-m", msg, "--"}, files...)...); err != nil {
		t.result["error"] = "git commit failed: " + out
		return nil
	}
	sha, _ := c.git(ctx, "rev-parse", "HEAD")
	dir := artifactDir(t.work.ID, nodeID)
	c.writeArtifact(dir, "result.json", map[string]any{"nodeId": nodeID, "sideEffectType": "git_commit", "commit": sha, "files": files})
	t.result["executed"] = true
	t.result["commit"] = sha
	t.result["files"] = files
	t.result["artifactBundleRef"] = dir
	return c.setStatus(ctx, tx, t, nodeID, statusExecuted)
}

// git runs git in the workspace. Without a configured identity it commits
// as mcpc, so a gated commit never fails on a fresh machine.
func (c *Controller) git(ctx context.Context, args ...string) (string, error) {
	if args[0] == "commit" {
		if out, _ := exec.CommandContext(ctx, "git", "-C", c.root, "config", "user.email").Output(); len(strings.TrimSpace(string(out))) == 0 {
			args = append([]string{"-c", "user.name=mcpc", "-c", "user.email=mcpc@localhost"}, args...)
		}
	}
	// --literal-pathspecs: a file named "*.ts" or ":(glob)**" must name only
	// itself, or a gated commit would take in files nobody approved.
	out, err := exec.CommandContext(ctx, "git", append([]string{"-C", c.root, "--literal-pathspecs"}, args...)...).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}
