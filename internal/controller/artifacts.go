package controller

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
)

// sha256Hex is how mcpc names a content hash: "sha256:" and hex.
func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// artifactDir is a node's artifact bundle folder, relative to the workspace.
func artifactDir(workID, nodeID string) string {
	return workDir(workID) + "/artifacts/" + safeNodeID(nodeID)
}

// safeNodeID keeps node ids usable as one folder name.
func safeNodeID(id string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, strings.Trim(id, "."))
}

// diffSummary counts changed lines and their range (1-based).
func diffSummary(file, before, after string, edits int) map[string]any {
	a, b := strings.Split(before, "\n"), strings.Split(after, "\n")
	lo := 0
	for lo < len(a) && lo < len(b) && a[lo] == b[lo] {
		lo++
	}
	ea, eb := len(a), len(b)
	for ea > lo && eb > lo && a[ea-1] == b[eb-1] {
		ea--
		eb--
	}
	return map[string]any{"file": file, "edits": edits, "startLine": lo + 1, "endLine": eb,
		"linesRemoved": ea - lo, "linesAdded": eb - lo}
}

func (c *Controller) writeArtifact(dir, name string, v any) {
	raw, _ := json.MarshalIndent(v, "", "  ")
	if err := c.writeState(dir+"/"+name, raw); err != nil {
		c.log.Warn().Err(err).Str("artifact", name).Msg("artifact not written")
	}
}
