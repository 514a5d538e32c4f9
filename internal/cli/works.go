package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/hook"
	"github.com/mcpc/mcpc/internal/store"
)

type worksParams struct {
	*rootParams
	format   string
	follow   bool
	interval time.Duration
}

func newWorksCommand(root *rootParams) *cobra.Command {
	p := &worksParams{rootParams: root, format: "json", interval: 500 * time.Millisecond}
	cmd := &cobra.Command{
		Use:   "works",
		Short: "List the workspace's works (state, agents, progress, last decision); --follow streams decisions",
		Long: `Reads the shared store (.ai/tmp/mcpc.db) that every mcpc process on this
workspace writes. Without --follow, prints the works and exits. With --follow,
prints each decision as it is recorded, and each host tool use mcpc hook
refused or recorded (its "hook" body), one JSON object or text line each,
polling the store every --interval, until interrupted.`,
		RunE: func(cmd *cobra.Command, _ []string) error { return p.run(cmd) },
	}
	cmd.Flags().StringVar(&p.format, "format", p.format, "json or text")
	cmd.Flags().BoolVar(&p.follow, "follow", false, "stream decisions as they are recorded")
	cmd.Flags().DurationVar(&p.interval, "interval", p.interval, "how often --follow polls the store")
	return cmd
}

// workSummary is one line of `mcpc works`.
type workSummary struct {
	WorkID       string          `json:"workId"`
	State        string          `json:"state"`
	Prompt       string          `json:"prompt"`
	Agents       []agentSummary  `json:"agents"`
	Progress     progressSummary `json:"progress"`
	LastDecision *decisionLine   `json:"lastDecision,omitempty"`
	// HookSessions are the host sessions whose hook events are judged
	// against this work (docs/hooks.md, "Which work").
	HookSessions []hook.SessionBinding `json:"hookSessions"`
}

type agentSummary struct {
	AgentID    string `json:"agentId"`
	Turns      int    `json:"turns"`
	Denials    int    `json:"denials"`
	UsedTokens int    `json:"usedTokens"`
}

type progressSummary struct {
	TotalNodes int            `json:"totalNodes"`
	ByStatus   map[string]int `json:"byStatus"`
}

// decisionLine is what --follow prints per decision.
type decisionLine struct {
	WorkID    string   `json:"workId"`
	Seq       int      `json:"seq"`
	Verb      string   `json:"verb"`
	AgentID   string   `json:"agentId"`
	At        string   `json:"at"`
	Allow     bool     `json:"allow"`
	NextState string   `json:"nextState"`
	Codes     []string `json:"codes"`
	// Hook is the body of a host tool use `mcpc hook` judged or recorded
	// (docs/hooks.md); Verb is then the host's tool and AgentID host:session.
	Hook json.RawMessage `json:"hook,omitempty"`
}

func (p *worksParams) run(cmd *cobra.Command) error {
	if p.format != "json" && p.format != "text" {
		return fmt.Errorf("--format must be json or text, not %q", p.format)
	}
	path := filepath.Join(p.workspace, app.StorePath)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		if !p.follow {
			return p.print(cmd.OutOrStdout(), []workSummary{})
		}
		return fmt.Errorf("no mcpc store at %s yet: start a work first", path)
	}
	st, err := store.Open(path)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if !p.follow {
		works, err := summarize(ctx, st)
		if err != nil {
			return err
		}
		sessions, err := hook.Sessions(p.workspace)
		if err != nil {
			return fmt.Errorf("the hook session bindings: %w", err)
		}
		for i := range works {
			for _, b := range sessions {
				if b.WorkID == works[i].WorkID {
					works[i].HookSessions = append(works[i].HookSessions, b)
				}
			}
		}
		return p.print(cmd.OutOrStdout(), works)
	}
	return p.followDecisions(ctx, st, cmd.OutOrStdout())
}

func (p *worksParams) print(w io.Writer, works []workSummary) error {
	if p.format == "json" {
		return writeJSON(w, works)
	}
	for _, s := range works {
		last := "-"
		if d := s.LastDecision; d != nil {
			last = fmt.Sprintf("#%d %s %s", d.Seq, d.Verb, allowWord(d))
		}
		fmt.Fprintf(w, "%s  %-14s agents %d  sessions %d  nodes %d %v  last %s  %q\n", s.WorkID, s.State, len(s.Agents), len(s.HookSessions), s.Progress.TotalNodes, s.Progress.ByStatus, last, truncate(s.Prompt, 60))
	}
	return nil
}

func allowWord(d *decisionLine) string {
	if d.Allow {
		return "allowed"
	}
	return "denied " + strings.Join(d.Codes, ",")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func summarize(ctx context.Context, st *store.Store) ([]workSummary, error) {
	out := []workSummary{}
	err := st.View(ctx, func(tx *store.Tx) error {
		ids, err := tx.WorkIDs(ctx)
		if err != nil {
			return err
		}
		for _, id := range ids {
			w, err := tx.Work(ctx, id)
			if err != nil {
				return err
			}
			s := workSummary{WorkID: w.ID, State: w.State, Prompt: w.Prompt, Agents: []agentSummary{}, Progress: progressSummary{ByStatus: map[string]int{}}, HookSessions: []hook.SessionBinding{}}
			agents, err := tx.Agents(ctx, id)
			if err != nil {
				return err
			}
			for _, a := range agents {
				s.Agents = append(s.Agents, agentSummary{AgentID: a.ID, Turns: a.Turns, Denials: a.Denials, UsedTokens: a.UsedTokens})
			}
			nodes, err := tx.Nodes(ctx, id, false)
			if err != nil {
				return err
			}
			s.Progress.TotalNodes = len(nodes)
			for _, n := range nodes {
				s.Progress.ByStatus[n.Status]++
			}
			seqs, err := tx.DecisionSeqs(ctx, id)
			if err != nil {
				return err
			}
			if len(seqs) > 0 {
				if s.LastDecision, err = decisionOf(ctx, tx, id, seqs[len(seqs)-1]); err != nil {
					return err
				}
			}
			out = append(out, s)
		}
		return nil
	})
	return out, err
}

func decisionOf(ctx context.Context, tx *store.Tx, workID string, seq int) (*decisionLine, error) {
	raw, err := tx.Decision(ctx, workID, seq)
	if err != nil {
		return nil, err
	}
	var rec struct {
		Verb    string `json:"verb"`
		AgentID string `json:"agentId"`
		At      string `json:"at"`
		Result  struct {
			Allow     bool   `json:"allow"`
			NextState string `json:"nextState"`
			Denials   []struct {
				Code string `json:"code"`
			} `json:"denials"`
		} `json:"result"`
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("decision %d of work %s: %w", seq, workID, err)
	}
	d := &decisionLine{WorkID: workID, Seq: seq, Verb: rec.Verb, AgentID: rec.AgentID, At: rec.At,
		Allow: rec.Result.Allow, NextState: rec.Result.NextState, Codes: []string{}}
	for _, dn := range rec.Result.Denials {
		d.Codes = append(d.Codes, dn.Code)
	}
	return d, nil
}

// followDecisions prints decisions recorded after it started, polling.
func (p *worksParams) followDecisions(ctx context.Context, st *store.Store, w io.Writer) error {
	seen := map[string]int{}
	first := true
	// Hook events recorded before --follow started are history too.
	lastEvent, err := st.LastEventID(ctx)
	if err != nil {
		return err
	}
	tick := time.NewTicker(p.interval)
	defer tick.Stop()
	for {
		var lines []*decisionLine
		err := st.View(ctx, func(tx *store.Tx) error {
			ids, err := tx.WorkIDs(ctx)
			if err != nil {
				return err
			}
			for _, id := range ids {
				seqs, err := tx.DecisionSeqs(ctx, id)
				if err != nil {
					return err
				}
				for _, seq := range seqs {
					if seq <= seen[id] {
						continue
					}
					seen[id] = seq
					if first { // what was recorded before --follow started is history
						continue
					}
					d, err := decisionOf(ctx, tx, id, seq)
					if err != nil {
						return err
					}
					lines = append(lines, d)
				}
			}
			return nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		first = false
		hooks, err := st.ListEvents(ctx, store.EventFilter{AfterID: lastEvent, Kind: hook.EventKind, Limit: 1000})
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		for _, e := range hooks {
			lastEvent = e.ID
			lines = append(lines, &decisionLine{WorkID: e.WorkID, Verb: e.Verb, AgentID: e.AgentID, At: e.At, Allow: !e.Denied, Codes: e.Codes, Hook: e.Body})
		}
		for _, d := range lines {
			if p.format == "json" {
				raw, _ := json.Marshal(d)
				fmt.Fprintln(w, string(raw))
			} else {
				if d.Hook != nil {
					fmt.Fprintf(w, "%s hook %s %s %s\n", d.WorkID, d.AgentID, d.Verb, allowWord(d))
					continue
				}
				fmt.Fprintf(w, "%s #%d %s %s -> %s %s\n", d.WorkID, d.Seq, d.AgentID, d.Verb, d.NextState, allowWord(d))
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}
