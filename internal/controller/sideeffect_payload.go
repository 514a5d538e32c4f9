package controller

import (
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
)

// sideEffectFacts is what policy reads of the side_effect node a turn
// executes (input.sideEffect): its type, and for git_commit the payload
// the commit message comes from.
type sideEffectFacts struct {
	Type       string       `json:"type"`
	PayloadRef string       `json:"payloadRef"`
	Payload    payloadFacts `json:"payload"`
}

// payloadFacts describe the payload file in the work's scratch folder.
type payloadFacts struct {
	Found   bool   `json:"found"`
	Bytes   int    `json:"bytes"`
	Problem string `json:"problem"`
}

// maxPayloadBytes bounds a side effect's payload (a commit message).
const maxPayloadBytes = 64 << 10

// gatherSideEffect reads the node's payload. sideEffectPayloadRef names a
// file in the work's scratch folder ("scratch:NAME" or "NAME"), which the
// agent wrote with write_scratch_file: the commit message is the agent's
// text, never something mcpc makes up from its own state.
func (c *Controller) gatherSideEffect(t *turn) {
	nodeID, _ := t.args["planNodeId"].(string)
	n, ok := findNode(t.nodes, nodeID)
	if !ok {
		return
	}
	var body struct {
		SideEffectType       string `json:"sideEffectType"`
		SideEffectPayloadRef string `json:"sideEffectPayloadRef"`
	}
	if err := json.Unmarshal(n.Body, &body); err != nil {
		f := &t.in.SideEffect
		f.Payload.Problem = "the node could not be read: " + err.Error()
		return
	}
	f := &t.in.SideEffect
	f.Type, f.PayloadRef = body.SideEffectType, body.SideEffectPayloadRef
	if f.PayloadRef == "" {
		return
	}
	scratch, err := c.paths.Sub(workDir(t.work.ID) + "/scratch")
	if err != nil {
		f.Payload.Problem = err.Error()
		return
	}
	name := strings.TrimPrefix(f.PayloadRef, "scratch:")
	pf := scratch.Resolve(name)
	if len(pf.Problems) == 1 && pf.Problems[0] == "not_found" {
		f.Payload.Problem = "scratch/" + pf.Canonical + " does not exist; write it with write_scratch_file"
		return
	}
	if !pf.Valid {
		f.Payload.Problem = "the payload ref is not a file of the work's scratch folder: " + strings.Join(pf.Problems, ", ")
		return
	}
	raw, err := scratch.ReadFile(pf.Canonical, maxPayloadBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f.Payload.Problem = "scratch/" + pf.Canonical + " does not exist; write it with write_scratch_file"
		return
	case err != nil:
		f.Payload.Problem = err.Error()
		return
	}
	f.Payload.Found = true
	f.Payload.Bytes = len(strings.TrimSpace(string(raw)))
	t.commitMessage = strings.TrimSpace(string(raw))
}
