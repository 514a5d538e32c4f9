package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/mcpc/mcpc/internal/pathscope"
)

// A host session (Claude Code's session_id, Cursor's conversation_id) is
// bound to the work its agent drives through controller_turn: when the host
// reports an allowed controller_turn answer (PostToolUse of
// mcp__mcpc__controller_turn, Cursor's afterMCPExecution), the hook writes
// the answer's workId to the session's binding file. Later events of that
// session are judged against that work even when other works are active.
// One file per session, replaced atomically, so concurrent hooks of
// different sessions never lose each other's binding.
const sessionDir = ".ai/tmp/hook-sessions"

// maxSessionFile bounds a binding file the hook reads.
const maxSessionFile = 64 << 10

// sessionBinding is one session's binding file.
type sessionBinding struct {
	Host    string `json:"host"`
	Session string `json:"session"`
	WorkID  string `json:"workId"`
	BoundAt string `json:"boundAt"`
}

// sessionFile is the binding file of a host's session: a hash, so a
// session id never becomes a path.
func sessionFile(host Host, session string) string {
	sum := sha256.Sum256([]byte(string(host) + "\x00" + session))
	return sessionDir + "/" + hex.EncodeToString(sum[:16]) + ".json"
}

// boundWork reads the work a session is bound to; "" when it is not.
func boundWork(res *pathscope.Resolver, host Host, session string) (string, error) {
	if session == "" {
		return "", nil
	}
	data, err := res.ReadFile(sessionFile(host, session), maxSessionFile)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var b sessionBinding
	if err := json.Unmarshal(data, &b); err != nil {
		return "", err
	}
	if b.Host != string(host) || b.Session != session {
		return "", nil
	}
	return b.WorkID, nil
}

// bindSession binds a session to a work.
func bindSession(res *pathscope.Resolver, host Host, session, workID string, now time.Time) error {
	data, err := json.Marshal(sessionBinding{Host: string(host), Session: session, WorkID: workID, BoundAt: now.UTC().Format(time.RFC3339Nano)})
	if err != nil {
		return err
	}
	return res.WriteFileAtomic(sessionFile(host, session), append(data, '\n'), true)
}

// turnWork is the work an allowed controller_turn answer names; "" for a
// denied answer (an agent refused on a work is not bound to it) or one
// that names none. The host passes the answer as the MCP result
// (structuredContent, or content blocks whose text is the answer), the
// answer itself, or a string holding either.
func turnWork(raw json.RawMessage) string {
	return turnWorkDepth(raw, 0)
}

func turnWorkDepth(raw json.RawMessage, depth int) string {
	if len(raw) == 0 || depth > 4 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return turnWorkDepth(json.RawMessage(s), depth+1)
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		for _, item := range list {
			if w := turnWorkDepth(item, depth+1); w != "" {
				return w
			}
		}
		return ""
	}
	var obj struct {
		WorkID            string            `json:"workId"`
		Denials           []json.RawMessage `json:"denials"`
		IsError           bool              `json:"isError"`
		StructuredContent json.RawMessage   `json:"structuredContent"`
		Content           json.RawMessage   `json:"content"`
		Result            json.RawMessage   `json:"result"`
		Text              string            `json:"text"`
	}
	if json.Unmarshal(raw, &obj) != nil || obj.IsError {
		return ""
	}
	if obj.WorkID != "" {
		if len(obj.Denials) > 0 {
			return ""
		}
		return obj.WorkID
	}
	for _, inner := range []json.RawMessage{obj.StructuredContent, obj.Content, obj.Result} {
		if w := turnWorkDepth(inner, depth+1); w != "" {
			return w
		}
	}
	if obj.Text != "" {
		return turnWorkDepth(json.RawMessage(obj.Text), depth+1)
	}
	return ""
}

// SessionBinding is a host session bound to a work, as `mcpc works` lists it.
type SessionBinding struct {
	Host    string `json:"host"`
	Session string `json:"session"`
	WorkID  string `json:"workId"`
	BoundAt string `json:"boundAt"`
}

// Sessions lists the workspace's session bindings, sorted by when they
// were made; none when no hook ever bound one.
func Sessions(workspace string) ([]SessionBinding, error) {
	res, err := pathscope.New(workspace)
	if err != nil {
		return nil, err
	}
	names, err := res.ReadDirNames(sessionDir)
	if errors.Is(err, fs.ErrNotExist) {
		return []SessionBinding{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := []SessionBinding{}
	for _, name := range names {
		if !strings.HasSuffix(name, ".json") {
			continue // a temporary file of a binding being written
		}
		data, err := res.ReadFile(sessionDir+"/"+name, maxSessionFile)
		if err != nil {
			return nil, err
		}
		var b sessionBinding
		if err := json.Unmarshal(data, &b); err != nil {
			return nil, fmt.Errorf("%s/%s: %w", sessionDir, name, err)
		}
		out = append(out, SessionBinding(b))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].BoundAt < out[j].BoundAt })
	return out, nil
}
