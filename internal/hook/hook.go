package hook

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/engine"
	"github.com/mcpc/mcpc/internal/ledger"
	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/internal/store"
)

// Query is the hook decision every event evaluates.
const Query = "data.mcpc.hook.decision"

// policyPackages are the parts of the policy the hook decision uses; a
// hook is a process per event, so it compiles only these.
var policyPackages = []string{"data.mcpc.hook", "data.mcpc.rules.hook", "data.mcpc.lib.hook", "data.mcpc.lib.protected", "data.mcpc.lib.tables", "data.mcpc.result"}

// StorePath is mcpc's database, relative to the workspace (app.StorePath;
// repeated here so a hook does not link the server).
const StorePath = ".ai/tmp/mcpc.db"

// Options configures Run.
type Options struct {
	Host      Host
	Workspace string // the governed repository; "" for the event's first workspace root (Cursor), else "."
	WorkID    string // MCPC_WORK_ID: the work this session belongs to, "" for the one active work
	Bundle    string // a policy bundle; "" for the embedded policies
	Now       func() time.Time
}

// Decision is what policy decided about one event.
type Decision struct {
	Permission string      `json:"permission"`
	Denials    []Violation `json:"denials"`
	Asks       []Violation `json:"asks"`
	WorkID     string      `json:"workId"`
}

// Violation is one rule's finding.
type Violation struct {
	Code        string `json:"code"`
	Rule        string `json:"rule"`
	Message     string `json:"message"`
	Path        string `json:"path"`
	Remediation string `json:"remediation"`
	Severity    string `json:"severity"`
}

// target is one path the event reads or writes, for policy.
type target struct {
	// Access is read, write, or named: a shell argument that is neither an
	// existing file nor outside the worktree, which the command may create
	// or change (cp's destination) as far as the hook can tell.
	Access string          `json:"access"`
	At     string          `json:"at"` // where in the host's event
	Path   pathscope.Facts `json:"path"`
	// Segment is the shell segment an argument belongs to, so policy can
	// judge it by its command (a cp destination under .ai/ is a write of
	// mcpc's own files, whichever work is bound).
	Segment *int `json:"segment,omitempty"`
	// Arg is the index in the segment's argv of the word that names it.
	Arg *int `json:"arg,omitempty"`
}

// input is the hook decision's input document (docs/hooks.md).
type input struct {
	Hook struct {
		Host    string        `json:"host"`
		Event   string        `json:"event"`
		Tool    string        `json:"tool"`
		Kind    string        `json:"kind"`
		Targets []target      `json:"targets"`
		Shell   *shellCommand `json:"shell"`
	} `json:"hook"`
	Binding struct {
		Requested   string   `json:"requested"`   // MCPC_WORK_ID
		Found       bool     `json:"found"`       // requested is an active work
		Session     string   `json:"session"`     // the host's session id
		SessionWork string   `json:"sessionWork"` // the work the session is bound to, "" when none
		Via         string   `json:"via"`         // env, session, only-active, or "" when no work is bound
		Active      []string `json:"active"`
	} `json:"binding"`
	Config struct {
		SafeCommands []string `json:"safeCommands"` // .ai/config hooks.safeCommands
	} `json:"config"`
	Work  *workFact           `json:"work,omitempty"`
	Pack  packFact            `json:"pack"`
	Owned map[string][]string `json:"owned"` // file -> change nodes of the accepted plan
}

type workFact struct {
	ID    string `json:"id"`
	State string `json:"state"`
}

type packFact struct {
	Files []string `json:"files"`
}

// Run reads one host event, decides it and returns the host's answer. An
// error is returned with the answer that denies the event (fail closed).
func Run(ctx context.Context, opts Options, raw []byte) (answer []byte, dec *Decision, err error) {
	// Cursor on Windows writes a UTF-8 byte order mark before the event.
	ev, err := parse(opts.Host, bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf")))
	if err == nil {
		dec, err = run(ctx, opts, ev)
	}
	if err != nil {
		dec = &Decision{Permission: "deny", Denials: []Violation{{Code: "HOOK_ERROR", Message: err.Error(),
			Remediation: "mcpc could not judge this tool use, so it is denied; fix the error or work through controller_turn"}}}
	}
	name := ""
	if ev != nil {
		name = ev.Name
	}
	post := ev != nil && ev.Post
	return answerFor(opts.Host, name, post, dec), dec, err
}

func parse(host Host, raw []byte) (*event, error) {
	switch host {
	case ClaudeCode:
		return parseClaude(raw)
	case Cursor:
		return parseCursor(raw)
	}
	return nil, fmt.Errorf("unknown host %q (claude-code or cursor)", host)
}

func run(ctx context.Context, opts Options, ev *event) (*Decision, error) {
	ws := opts.Workspace
	if ws == "" && len(ev.Roots) > 0 {
		ws = ev.Roots[0]
	} else if ws == "" {
		ws = "."
	}
	res, err := pathscope.New(ws)
	if err != nil {
		return nil, err
	}
	eng, err := engine.New(ctx, engine.Options{BundlePath: opts.Bundle, Query: Query, Packages: policyPackages})
	if err != nil {
		return nil, err
	}
	in := input{Owned: map[string][]string{}, Pack: packFact{Files: []string{}}}
	in.Hook.Host, in.Hook.Event, in.Hook.Tool, in.Hook.Kind = string(opts.Host), ev.Name, ev.Tool, ev.Kind
	in.Hook.Targets = targets(res, ev)
	if ev.Kind == kindShell {
		sc := parseShell(ev.Command)
		in.Hook.Shell = &sc
		in.Hook.Targets = append(in.Hook.Targets, shellTargets(res, ev.Cwd, &sc)...)
	}
	in.Binding.Requested, in.Binding.Active, in.Binding.Session = opts.WorkID, []string{}, ev.Session
	in.Config.SafeCommands = []string{}
	if ev.Kind == kindShell {
		// Only a shell command needs the repository's configuration; an
		// invalid one fails the event closed.
		cfg, err := config.Load(res.Root())
		if err != nil {
			return nil, err
		}
		in.Config.SafeCommands = append(in.Config.SafeCommands, cfg.Hooks.SafeCommands...)
	}

	st, err := openStore(res.Root())
	if err != nil {
		return nil, err
	}
	if st != nil {
		defer st.Close()
		if in.Binding.SessionWork, err = boundWork(res, opts.Host, ev.Session); err != nil {
			return nil, fmt.Errorf("the session's work binding: %w", err)
		}
		if err := bind(ctx, st, eng, &in); err != nil {
			return nil, err
		}
	}
	var dec Decision
	if _, _, err := eng.Evaluate(ctx, in, &dec); err != nil {
		return nil, err
	}
	if st == nil {
		return &dec, nil
	}
	if w := turnWork(ev.Turn); w != "" && ev.Session != "" && slices.Contains(in.Binding.Active, w) && w != in.Binding.SessionWork {
		if err := bindSession(res, opts.Host, ev.Session, w, now(opts)); err != nil {
			return nil, fmt.Errorf("binding the session to %s: %w", w, err)
		}
	}
	if in.Work == nil {
		return &dec, nil
	}
	if ev.Post && !ev.Failed {
		if err := record(ctx, st, res, opts, ev, &in); err != nil {
			return nil, err
		}
	}
	if (ev.Post && ev.Kind != kindOther) || dec.Permission != "allow" {
		// What read, wrote or ran commands, and what was refused, is the
		// work's history; other tools (Glob, MCP tools, controller_turn
		// itself, whose turns are recorded as decisions) are not.
		if err := appendEvent(ctx, st, opts, ev, &in, &dec); err != nil {
			return nil, err
		}
	}
	return &dec, nil
}

func now(opts Options) time.Time {
	if opts.Now != nil {
		return opts.Now()
	}
	return time.Now()
}

func targets(res *pathscope.Resolver, ev *event) []target {
	out := []target{}
	access := "read"
	if ev.Kind == kindEdit || ev.Kind == kindWrite {
		access = "write"
	}
	for _, p := range ev.Paths {
		f := res.Resolve(relativeTo(res.Root(), ev.Cwd, p))
		if ev.Kind == kindList {
			access = operandAccess(f) // named inside the worktree, as ls src is; read outside
		}
		out = append(out, target{Access: access, At: ev.At, Path: f})
	}
	return out
}

// openStore opens the workspace's store when it exists; a workspace where
// mcpc never ran has no works (nil, nil), and a hook does not create one.
func openStore(root string) (*store.Store, error) {
	path := filepath.Join(root, filepath.FromSlash(StorePath))
	info, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("mcpc's database %s is not a regular file", StorePath)
	}
	return store.Open(path)
}

// bind finds the work the event belongs to and gathers its pack and the
// files its accepted change nodes own.
func bind(ctx context.Context, st *store.Store, eng *engine.Engine, in *input) error {
	terminal := terminalStates(eng)
	return st.View(ctx, func(tx *store.Tx) error {
		ids, err := tx.WorkIDs(ctx)
		if err != nil {
			return err
		}
		var chosen *store.Work
		for _, id := range ids {
			w, err := tx.Work(ctx, id)
			if err != nil {
				return err
			}
			if slices.Contains(terminal, w.State) {
				continue
			}
			in.Binding.Active = append(in.Binding.Active, w.ID)
			if in.Binding.Requested == w.ID {
				chosen, in.Binding.Found = w, true
			}
		}
		// MCPC_WORK_ID, else the session's binding to an active work,
		// else the one active work.
		pick := ""
		switch {
		case in.Binding.Requested != "":
			if chosen != nil {
				in.Binding.Via = "env"
			}
		case in.Binding.SessionWork != "" && slices.Contains(in.Binding.Active, in.Binding.SessionWork):
			pick, in.Binding.Via = in.Binding.SessionWork, "session"
		case len(in.Binding.Active) == 1:
			pick, in.Binding.Via = in.Binding.Active[0], "only-active"
		}
		if pick != "" {
			if chosen, err = tx.Work(ctx, pick); err != nil {
				return err
			}
		}
		if chosen == nil {
			return nil
		}
		in.Work = &workFact{ID: chosen.ID, State: chosen.State}
		var pack packFact
		if len(chosen.Pack) > 0 {
			if err := json.Unmarshal(chosen.Pack, &pack); err != nil {
				return fmt.Errorf("work %s's pack: %w", chosen.ID, err)
			}
		}
		if pack.Files != nil {
			in.Pack = pack
		}
		nodes, err := tx.Nodes(ctx, chosen.ID, false)
		if err != nil {
			return err
		}
		for _, n := range nodes {
			if n.Kind == "change" && n.TargetFile != "" {
				in.Owned[n.TargetFile] = append(in.Owned[n.TargetFile], n.NodeID)
			}
		}
		return nil
	})
}

func terminalStates(eng *engine.Engine) []string {
	v := eng.Data("data", "mcpc", "terminalStates")
	if v == nil {
		v = eng.Data("mcpc", "terminalStates")
	}
	list, _ := v.([]any)
	out := []string{}
	for _, s := range list {
		if s, ok := s.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// record keeps what a tool that ran did: the read snapshot of a file read
// or written (the stale-read check at apply_code_patch compares against
// it, as after read_file_lines), and a trace ledger entry for an edit. A
// file a writing tool ran on that is gone now (Cursor's Delete, a patch's
// "*** Delete File:", rm) was deleted: a ledger entry of class DELETE with
// the tombstone hash, and no read snapshot.
func record(ctx context.Context, st *store.Store, res *pathscope.Resolver, opts Options, ev *event, in *input) error {
	for _, t := range in.Hook.Targets {
		if t.Access == "write" && deleted(t.Path) {
			if err := st.Update(ctx, func(tx *store.Tx) error {
				return appendTrace(ctx, tx, res, opts, ev, in, t.Path.Canonical, ledger.Deletion, ledger.Tombstone)
			}); err != nil {
				return err
			}
			continue
		}
		if !t.Path.Valid || !t.Path.Regular {
			continue
		}
		data, err := res.ReadFile(t.Path.Canonical, 8<<20)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		hash := "sha256:" + hex.EncodeToString(sum[:])
		if err := st.Update(ctx, func(tx *store.Tx) error {
			if err := tx.RecordRead(ctx, in.Work.ID, t.Path.Canonical, hash); err != nil || t.Access != "write" {
				return err
			}
			return appendTrace(ctx, tx, res, opts, ev, in, t.Path.Canonical, ledger.IntentEvolution, hash)
		}); err != nil {
			return err
		}
	}
	return nil
}

// deleted reports whether p names a file in the worktree that is not there:
// its only problem is that nothing exists at it.
func deleted(p pathscope.Facts) bool {
	return p.Canonical != "" && !p.Exists && slices.Equal(p.Problems, []string{pathscope.ProblemNotFound})
}

// appendTrace appends a sealed, chained ledger record of what the tool did
// to file and moves the store's anchor to it in tx, as the controller does
// (the store's transaction first, then the ledger's lock, in both).
func appendTrace(ctx context.Context, tx *store.Tx, res *pathscope.Resolver, opts Options, ev *event, in *input, file, class, hash string) error {
	related := []ledger.Related{}
	for _, n := range in.Owned[file] {
		related = append(related, ledger.Related{Type: "plan_node", Value: n})
	}
	rec := ledger.Record{
		ID: ledger.NewID(), Timestamp: now(opts).UTC().Format(time.RFC3339Nano),
		IntentID: in.Work.ID, MutationClass: class, WorkID: in.Work.ID,
		Files: []ledger.File{{RelativePath: file, Conversations: []ledger.Conversation{{
			URL:         in.Work.ID,
			Contributor: ledger.Contributor{EntityType: "AI", ModelIdentifier: string(opts.Host) + ":" + ev.Tool},
			Ranges:      []ledger.Range{{ContentHash: hash}},
			Related:     related,
		}}}},
	}
	next, err := ledger.Append(res, rec)
	if err != nil {
		return err
	}
	return tx.SetLedgerHead(ctx, ledger.Path, next.Seq, next.Hash)
}
