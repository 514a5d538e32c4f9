package hook

import (
	"encoding/json"
	"strings"
)

// reason is the text a host shows the agent: each finding with its code,
// what is wrong and what to do instead.
func reason(dec *Decision) string {
	var parts []string
	for _, list := range [][]Violation{dec.Denials, dec.Asks} {
		for _, v := range list {
			parts = append(parts, v.Code+": "+v.Message+". "+v.Remediation)
		}
	}
	return strings.Join(parts, "\n")
}

// answerFor writes the decision in the host's own hook output format.
// Events after the fact (PostToolUse, afterFileEdit) cannot be refused;
// they answer with an empty object.
func answerFor(host Host, event string, post bool, dec *Decision) []byte {
	var out any
	switch {
	case post:
		out = map[string]any{}
	case host == ClaudeCode:
		name := event
		if name == "" {
			name = "PreToolUse"
		}
		out = map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName":            name,
			"permissionDecision":       dec.Permission,
			"permissionDecisionReason": reasonOr(dec),
		}}
	case event == "beforeReadFile":
		// Cursor's file read hook knows allow and deny only.
		p := dec.Permission
		if p != "allow" {
			p = "deny"
		}
		out = map[string]any{"permission": p}
	default:
		msg := reasonOr(dec)
		out = map[string]any{"permission": dec.Permission, "user_message": msg, "agent_message": msg}
	}
	raw, _ := json.Marshal(out)
	return raw
}

func reasonOr(dec *Decision) string {
	if r := reason(dec); r != "" {
		return r
	}
	return "allowed by mcpc policy"
}
