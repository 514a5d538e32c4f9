package hook

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpc/mcpc/internal/store"
)

// EventKind is the kind of the events rows a hook writes: one per tool use
// that ran (PostToolUse, afterFileEdit, afterShellExecution, ...) and one per
// refused or asked tool use, for the work the event belongs to.
const EventKind = "hook"

// historyBody is the body of a hook event row.
type historyBody struct {
	Host       string   `json:"host"`
	Event      string   `json:"event"`
	Tool       string   `json:"tool"`
	Kind       string   `json:"kind"`
	Session    string   `json:"session,omitempty"`
	BoundVia   string   `json:"boundVia"`
	Command    string   `json:"command,omitempty"`
	Reads      []string `json:"reads"`
	Writes     []string `json:"writes"`
	Permission string   `json:"permission"`
	Ran        bool     `json:"ran"`
}

// appendEvent records one hook event in the events table.
func appendEvent(ctx context.Context, st *store.Store, opts Options, ev *event, in *input, dec *Decision) error {
	body := historyBody{Host: string(opts.Host), Event: ev.Name, Tool: ev.Tool, Kind: ev.Kind, Session: ev.Session,
		BoundVia: in.Binding.Via, Command: ev.Command, Reads: []string{}, Writes: []string{}, Permission: dec.Permission, Ran: ev.Post && !ev.Failed}
	for _, t := range in.Hook.Targets {
		name := t.Path.Canonical
		if name == "" {
			name = t.Path.Raw
		}
		switch t.Access {
		case "write":
			body.Writes = append(body.Writes, name)
		case "read":
			body.Reads = append(body.Reads, name)
		}
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	codes := []string{}
	for _, list := range [][]Violation{dec.Denials, dec.Asks} {
		for _, v := range list {
			codes = append(codes, v.Code)
		}
	}
	_, err = st.AppendEvents(ctx, []store.ObservedEvent{{
		At: now(opts).UTC().Format(time.RFC3339Nano), Kind: EventKind, WorkID: in.Work.ID, AgentID: string(opts.Host) + ":" + ev.Session,
		Verb: ev.Tool, Denied: dec.Permission == "deny", Codes: codes, Anchors: []string{}, Body: raw,
	}}, 0)
	return err
}
