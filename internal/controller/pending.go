package controller

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/mcpc/mcpc/internal/store"
)

// A decision that cannot be recorded when it is made, because the store's
// write lock is not free (STORE_BUSY: the turn waited store.busyTimeoutMs
// for it; or the short transaction that records a LOCK_TIMEOUT or an
// execution failure found it taken), is never a silent one. It is written
// at once, durably and without the lock, to the work's pending-decisions
// folder (.ai/tmp/work/{id}/pending-decisions/), and the answer's traceRef
// names that file. A short later transaction records it as the work's next
// decision, charges what it owes to its agent and its MCP session, writes
// its decision record file and removes the pending one: the process that
// wrote it retries in the background until the lock is free, and the next
// process to start on the workspace records what a process left behind.
// Until then `mcpc explain-deny --work` explains it from the pending file.

// PendingDir is the folder, relative to the workspace, of a work's
// decisions not recorded yet (explain-deny reads them too).
func PendingDir(workID string) string { return workDir(workID) + "/pending-decisions" }

// pendingDecision is a decision waiting to be recorded, with what it owes.
type pendingDecision struct {
	WorkID  string          `json:"workId"`
	Verb    string          `json:"verb"`
	AgentID string          `json:"agentId"`
	At      time.Time       `json:"at"`
	Input   json.RawMessage `json:"input"`
	Result  json.RawMessage `json:"result"`
	Stages  []stageRecord   `json:"stages"`
	Denied  bool            `json:"denied"`
	// Record is the decision record as it will be, numbered 0 until it is
	// recorded: what explain-deny reads meanwhile.
	Record json.RawMessage `json:"record"`
	// The charge owed: the request's tokens and the earlier answers the
	// turn took from this process's book, to the agent (of the work) and
	// to the MCP session. Zero for a turn already charged.
	Session             string `json:"session,omitempty"`
	ChargeTokens        int    `json:"chargeTokens,omitempty"`
	AnswerTokens        int    `json:"answerTokens,omitempty"`
	SessionAnswerTokens int    `json:"sessionAnswerTokens,omitempty"`
}

// pendingOf is t's decision to record; charged says whether the turn still
// owes its charge (its own transaction never committed).
func (c *Controller) pendingOf(ctx context.Context, t *turn, charged bool) *pendingDecision {
	p := &pendingDecision{Verb: t.req.Verb, AgentID: t.agent.ID, At: c.now(), Input: t.inputRaw, Result: t.decRaw,
		Stages: t.stages, Denied: !t.dec.allowed()}
	if t.work != nil {
		p.WorkID = t.work.ID
	}
	p.Record = decisionRecord(0, p.Verb, p.AgentID, p.At, p.Input, p.Result, p.Stages)
	if charged {
		p.Session, p.ChargeTokens = c.budget.session(ctx), t.charge()
		p.AnswerTokens, p.SessionAnswerTokens = t.budget.answerTokens, t.budget.sessionAnswerTokens
	}
	return p
}

// recorded is what recording a pending decision did: the decision's
// number and record (none for a turn without a work), and the agent and
// session as charged (nil when nothing was owed).
type recorded struct {
	seq     int
	record  []byte
	agent   *store.Agent
	session *store.Session
}

// recordPending records p in tx. Its charge changes the session's row
// outside the turn flow, so the row the budget book keeps for this
// process's session is forgotten first.
func (c *Controller) recordPending(ctx context.Context, tx *store.Tx, p *pendingDecision) (recorded, error) {
	if p.Session != "" {
		// held under the write lock, as every turn's read of the kept row is
		c.budget.forget(p.Session)
	}
	return p.record(ctx, tx)
}

// record records p in tx: its charge, then (for a work) the decision under
// the work's next number. Callers go through Controller.recordPending.
func (p *pendingDecision) record(ctx context.Context, tx *store.Tx) (recorded, error) {
	var r recorded
	if p.Session != "" {
		s, err := tx.Session(ctx, p.Session)
		if err != nil {
			return r, err
		}
		s.UsedTokens += p.ChargeTokens + p.SessionAnswerTokens
		s.Turns++
		if err := tx.PutSession(ctx, s); err != nil {
			return r, err
		}
		r.session = s
	}
	if p.WorkID == "" {
		return r, nil // turns without a work are not recorded
	}
	if p.Session != "" {
		a, err := tx.Agent(ctx, p.WorkID, p.AgentID)
		if errors.Is(err, store.ErrNotFound) {
			a = &store.Agent{WorkID: p.WorkID, ID: p.AgentID}
		} else if err != nil {
			return r, err
		}
		// A turn that overran or never got the lock still cost the server
		// its bound or its wait: charged like any denial.
		a.UsedTokens += p.ChargeTokens + p.AnswerTokens
		a.Turns++
		if p.Denied {
			a.Denials++
		}
		if err := tx.PutAgent(ctx, a); err != nil {
			return r, err
		}
		r.agent = a
	}
	seq, err := tx.NextDecision(ctx, p.WorkID)
	if err != nil {
		return r, err
	}
	r.seq, r.record = seq, decisionRecord(seq, p.Verb, p.AgentID, p.At, p.Input, p.Result, p.Stages)
	return r, tx.PutDecision(ctx, p.WorkID, seq, p.Denied, r.record)
}

// lockUnavailable reports whether err is a bounded transaction's failure to
// get or keep the lock, after which a pending decision waits for a later one.
func lockUnavailable(err error) bool {
	return errors.Is(err, store.ErrBusy) || errors.Is(err, store.ErrLockTimeout)
}

// keepPending writes p to its work's pending-decisions folder, durably, and
// starts the background retry that records it; it returns the file's
// path. A turn without a work owes only its session's charge, which is
// retried in memory.
func (c *Controller) keepPending(ctx context.Context, p *pendingDecision) (string, error) {
	ctx = context.WithoutCancel(ctx)
	if p.WorkID == "" {
		go c.retryPending(ctx, func() error {
			return c.store.UpdateWithin(ctx, c.lockBounds(), func(tx *store.Tx) error { _, err := c.recordPending(ctx, tx, p); return err })
		})
		return "", nil
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return "", err
	}
	name := PendingDir(p.WorkID) + "/" + p.At.UTC().Format("20060102T150405.000000000Z") + "-" + newID("d") + ".json"
	if err := c.paths.WriteFileAtomic(name, raw, true); err != nil {
		return "", err
	}
	go c.retryPending(ctx, func() error { _, err := c.RecordPending(ctx, p.WorkID); return err })
	return name, nil
}

// retryPending runs record until the lock is free, backing off, for up to
// pendingRetryFor; what is left then is recorded by the next process.
func (c *Controller) retryPending(ctx context.Context, record func() error) {
	wait := 50 * time.Millisecond
	for deadline := time.Now().Add(pendingRetryFor); ; {
		err := record()
		if err == nil || !lockUnavailable(err) {
			if err != nil {
				c.log.Error().Err(err).Msg("a pending decision could not be recorded")
			}
			return
		}
		if time.Now().After(deadline) {
			c.log.Warn().Err(err).Msg("a pending decision is still not recorded; the next process records it")
			return
		}
		time.Sleep(wait)
		wait = min(wait*2, 2*time.Second)
	}
}

// pendingRetryFor bounds a process's background retries of one pending
// decision.
const pendingRetryFor = 2 * time.Minute

// RecordPending records a work's pending decisions, oldest first, in one
// short transaction, and says how many; their files are replaced by
// decision record files once it committed. Processes take turns on the
// folder (a file lock held from reading it to removing what was
// recorded), so a pending decision is recorded once; one a process that
// died between the commit and the removal left is known by its file's name,
// which the commit recorded with it (store.MarkPendingRecorded), and only
// removed.
func (c *Controller) RecordPending(ctx context.Context, workID string) (int, error) {
	dir := PendingDir(workID)
	if _, err := c.paths.ReadDirNames(dir); errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	unlock, err := c.paths.Lock(dir + "/.lock")
	if err != nil {
		return 0, err
	}
	defer unlock()
	names, err := c.paths.ReadDirNames(dir)
	if err != nil {
		return 0, err
	}
	slices.Sort(names)
	var done []string
	var files []recordFile
	err = c.store.UpdateWithin(ctx, c.lockBounds(), func(tx *store.Tx) error {
		done, files = nil, nil
		for _, n := range names {
			if !strings.HasSuffix(n, ".json") {
				continue
			}
			path := dir + "/" + n
			raw, err := c.paths.ReadFile(path, maxPendingBytes)
			p := &pendingDecision{}
			if err == nil {
				err = json.Unmarshal(raw, p)
			}
			if err != nil || p.WorkID != workID {
				c.log.Warn().Err(err).Str("pending", path).Msg("a pending decision is unreadable; left in place")
				continue
			}
			// A process that died between this commit and the removal
			// left the file: recorded already, it is only removed.
			if seq, err := tx.PendingRecorded(ctx, workID, n); err != nil {
				return err
			} else if seq > 0 {
				done = append(done, path)
				continue
			}
			r, err := c.recordPending(ctx, tx, p)
			if err != nil {
				return err
			}
			if err := tx.MarkPendingRecorded(ctx, workID, n, r.seq); err != nil {
				return err
			}
			done = append(done, path)
			files = append(files, recordFile{c.recordPath(workID, r.seq), r.record})
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	failpoint("pending:recorded") // the crash tests' process dies with the files not removed
	for _, path := range done {
		if err := c.paths.Remove(path); err != nil {
			c.log.Error().Err(err).Str("pending", path).Msg("a recorded pending decision was not removed")
		}
	}
	for _, f := range files {
		c.records.write(f.path, f.data)
	}
	return len(files), nil
}

// RecordAllPending records what every work has pending (serve runs it when
// it starts: decisions a process could not record before it ended).
func (c *Controller) RecordAllPending(ctx context.Context) (int, error) {
	n := 0
	err := c.eachWorkFolder(ctx, "pending-decisions", func(w string, names []string) error {
		if !slices.ContainsFunc(names, func(n string) bool { return strings.HasSuffix(n, ".json") }) {
			return nil // only the folder's lock file: nothing to record, no transaction
		}
		k, err := c.RecordPending(ctx, w)
		n += k
		return err
	})
	return n, err
}

// maxPendingBytes bounds reading a pending decision back.
const maxPendingBytes = 64 << 20
