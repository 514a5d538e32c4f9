package controller

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// attachment is one artifact of a work: an agent's inline or referenced
// attachment, or a ticket or API operation a connector fetched.
type attachment struct {
	ArtifactID string `json:"artifactId"`
	Type       string `json:"type"`
	Ref        string `json:"ref"`
	Caption    string `json:"caption,omitempty"`
	// Citation is how a plan cites a fetched ticket or operation;
	// Content is its slice (internal/requirements).
	Citation *citationRef    `json:"citation,omitempty"`
	Content  json.RawMessage `json:"content,omitempty"`
}

// storeAttachments lists args.attachments as the work's attachments and
// returns the writing of the inline ones (base64 content, decoded) under
// the work's attachments/ folder, to run once the work is committed: the
// request stays in the work's first decision record, from which a process
// that starts after one died before writing them writes them again
// (RestoreWorkFiles). Other refs are kept as metadata.
func (c *Controller) storeAttachments(workID string, raw any) ([]attachment, func(), error) {
	list, _ := raw.([]any)
	out := []attachment{}
	type writeJob struct {
		ref  string
		data []byte
	}
	var jobs []writeJob
	for i, item := range list {
		m, _ := item.(map[string]any)
		typ, _ := m["type"].(string)
		ref, _ := m["ref"].(string)
		caption, _ := m["caption"].(string)
		a := attachment{ArtifactID: fmt.Sprintf("att-%03d", i+1), Type: typ, Ref: ref, Caption: caption}
		if data, inline, err := inlineContent(ref); err != nil {
			return nil, nil, fmt.Errorf("attachment %d is not valid base64", i)
		} else if inline {
			a.Ref = attachmentRef(workID, typ, i)
			jobs = append(jobs, writeJob{a.Ref, data})
		}
		out = append(out, a)
	}
	return out, func() {
		for _, j := range jobs {
			if err := c.writeState(j.ref, j.data); err != nil {
				c.log.Warn().Err(err).Str("attachment", j.ref).Msg("attachment not written; the next start writes it")
			}
		}
	}, nil
}

// inlineContent decodes an inline attachment's ref ("inline:base64:...");
// inline is false for a ref that names its content elsewhere.
func inlineContent(ref string) (data []byte, inline bool, err error) {
	b64, inline := strings.CutPrefix(ref, "inline:base64:")
	if !inline {
		return nil, false, nil
	}
	data, err = base64.StdEncoding.DecodeString(b64)
	return data, true, err
}

// attachmentRef is where the i-th (from 0) inline attachment of a work is
// written.
func attachmentRef(workID, typ string, i int) string {
	return workDir(workID) + "/attachments/" + fmt.Sprintf("%s-%03d.bin", safeName(typ), i+1)
}

// inboxAttachments lists the files dropped in .ai/inbox/ (seed 000 §12:
// always ingested at initialize_work) as attachments of the work, after the
// ones the agent passed, and returns the copy of them into the work's
// attachments/ folder, to run once the work is committed: copying a large
// inbox inside the transaction held every other process's turns for as long
// (0.6 s for 120 MB). Links, nested folders, hidden and oversized files are
// skipped: the inbox is for people to drop files, not a way to reach out of
// the worktree.
func (c *Controller) inboxAttachments(workID string, atts []attachment) ([]attachment, func()) {
	inbox, err := c.paths.Sub(".ai/inbox")
	if err != nil {
		return atts, func() {}
	}
	entries, err := os.ReadDir(inbox.Root())
	if err != nil {
		return atts, func() {}
	}
	type copyJob struct{ from, to string }
	var jobs []copyJob
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if info, err := e.Info(); err != nil || info.Size() > maxInboxFile {
			c.log.Warn().Str("file", e.Name()).Msg("inbox file skipped: unreadable or over 16 MiB")
			continue
		}
		a := attachment{ArtifactID: fmt.Sprintf("att-%03d", len(atts)+1), Type: "inbox",
			Ref: workDir(workID) + "/attachments/inbox-" + e.Name(), Caption: e.Name()}
		atts = append(atts, a)
		jobs = append(jobs, copyJob{".ai/inbox/" + e.Name(), a.Ref})
	}
	return atts, func() {
		for _, j := range jobs {
			// ReadFile re-checks what the listing saw: a regular, singly
			// linked file within the limit, reached without a link.
			data, err := c.paths.ReadFile(j.from, maxInboxFile)
			if err == nil {
				err = c.writeState(j.to, data)
			}
			if err != nil {
				c.log.Warn().Err(err).Str("file", j.from).Msg("inbox file not copied into the work")
			}
		}
	}
}

func safeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return -1
	}, strings.ToLower(s))
	if s == "" {
		return "attachment"
	}
	return s
}
