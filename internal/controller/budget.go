package controller

import (
	"context"
	"math"
	"sync"

	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/store"
)

// Budget arithmetic (ARCHITECTURE §5, seeds 002 and 003). Go counts and
// passes the configured limits; policy (data.mcpc.lib.turn) computes every
// threshold, the charge and the slice, and decides who is blocked:
//
//   - A turn costs ceil(bytes/4) tokens for its request and for its answer,
//     denied turns included. The request's charge is at most
//     requestMaxTokens = floor(floor(maxTokens × thresholdPercent) ×
//     requestMaxPercent) (shares in thousandths); a larger request is denied, so no single request
//     costs more than that share of an agent's threshold. An answer's size
//     is known once the transport has encoded it: it is charged at the same
//     agent's (and session's) next turn in this process.
//   - Each agent of a work draws a slice of maxTokens from the work's pool
//     (workMaxTokens) at its first allowed turn; once granted slices would exceed
//     the pool, a new agentId gets none and is BLOCKED_BUDGET. An agent is
//     blocked past floor(slice × thresholdPercent); its spending never
//     touches another agent's slice, so a new agentId, however it pads its
//     requests, cannot block the work's other agents.
//   - Every turn is also charged to its MCP session, which is blocked past
//     floor(sessionMaxTokens × thresholdPercent) in every work it touches,
//     and cannot start new ones. The session is what the server controls:
//     the streamable HTTP session id, or for stdio the process (one client
//     per process). runSessionId, workId and agentId are the agent's to
//     choose and choose nothing here.

// budgetFacts are the configured limits policy computes thresholds from.
// The shares are passed in thousandths: policy computes with integers,
// which OPA does without big-number arithmetic on every turn.
type budgetFacts struct {
	MaxTokens          int `json:"maxTokens"`
	ThresholdPermille  int `json:"thresholdPermille"`
	WorkMaxTokens      int `json:"workMaxTokens"`
	SessionMaxTokens   int `json:"sessionMaxTokens"`
	RequestMaxPermille int `json:"requestMaxPermille"`
}

// permille is a configured share in thousandths (0.6 → 600).
func permille(share float64) int { return int(math.Round(share * 1000)) }

// sessionFacts is the MCP session's spending before this turn's request.
type sessionFacts struct {
	UsedTokens int `json:"usedTokens"`
	Turns      int `json:"turns"`
}

// decidedBudget is the budget part of a decision: what policy computed.
type decidedBudget struct {
	// SliceTokens is the agent's slice: the one granted before, or the one
	// granted now from the pool (0: none left).
	SliceTokens            int `json:"sliceTokens"`
	ThresholdTokens        int `json:"thresholdTokens"`
	SessionThresholdTokens int `json:"sessionThresholdTokens"`
	RequestMaxTokens       int `json:"requestMaxTokens"`
	// ChargeTokens is what the request costs: its tokens, at most
	// RequestMaxTokens.
	ChargeTokens int `json:"chargeTokens"`
}

// turnBudget is what a turn carries for its budget.
type turnBudget struct {
	session *store.Session
	// answerTokens are the answers to earlier turns charged by this one, to
	// its agent; sessionAnswerTokens to its session.
	answerTokens, sessionAnswerTokens int
	// granted is the slice this turn granted (0 when the agent had one).
	granted int
}

// budgetBook is the process's side of the budget: its own session (stdio)
// and the answers sent but not yet charged. The zero value is ready.
type budgetBook struct {
	once     sync.Once
	process  string
	mu       sync.Mutex
	agents   map[agentKey]int
	sessions map[string]int
	// own is the process session's row as this process last wrote it: no
	// other process writes it (its id is this process's), so a turn need
	// not read it back. committed is false from the write until its
	// transaction commits; a turn that begins in between, or after a
	// transaction that failed, reads the row.
	own struct {
		row       *store.Session
		committed bool
	}
}

// ownRow is the process session's row when it is known committed.
func (b *budgetBook) ownRow(id string) (store.Session, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.own.row == nil || !b.own.committed || b.own.row.ID != id || id != b.process {
		return store.Session{}, false
	}
	return *b.own.row, true
}

// wrote notes the row a transaction wrote for the process session.
func (b *budgetBook) wrote(s *store.Session) {
	if s.ID != b.process {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.own.row, b.own.committed = s, false
}

// settled confirms or forgets what the turn's transaction wrote.
func (b *budgetBook) settled(s *store.Session, committed bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s == nil || b.own.row != s {
		return // another turn's write since: that turn settles it
	}
	if committed {
		b.own.committed = true
	} else {
		b.own.row = nil
	}
}

// forget drops the kept row of session id: a write outside a turn's own
// flow (a pending decision's charge, pending.go) changed it, so the next
// turn reads it back from the store.
func (b *budgetBook) forget(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.own.row != nil && b.own.row.ID == id {
		b.own.row = nil
	}
}

type agentKey struct{ work, agent string }

// session is the turn's MCP session: the transport's, or this process's.
func (b *budgetBook) session(ctx context.Context) string {
	if id := protocol.SessionOf(ctx); id != "" {
		return "mcp:" + id
	}
	b.once.Do(func() { b.process = newID("process") })
	return b.process
}

func (b *budgetBook) addAnswer(session, work, agent string, tokens int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sessions == nil {
		b.sessions, b.agents = map[string]int{}, map[agentKey]int{}
	}
	b.sessions[session] += tokens
	if work != "" {
		b.agents[agentKey{work, agent}] += tokens
	}
}

// take removes and returns the uncharged answer tokens of a session, or of
// an agent of a work.
func (b *budgetBook) takeSession(session string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.sessions[session]
	delete(b.sessions, session)
	return n
}

// giveBack returns the answer tokens a turn took and will not charge (a
// preview on a snapshot, a turn that never got the lock): its session's
// and its agent's next turn charges them.
func (b *budgetBook) giveBack(session string, t *turn) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sessions == nil {
		b.sessions, b.agents = map[string]int{}, map[agentKey]int{}
	}
	b.sessions[session] += t.budget.sessionAnswerTokens
	if t.work != nil && t.agent != nil {
		b.agents[agentKey{t.work.ID, t.agent.ID}] += t.budget.answerTokens
	}
	t.budget.sessionAnswerTokens, t.budget.answerTokens = 0, 0
}

func (b *budgetBook) takeAgent(work, agent string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := agentKey{work, agent}
	n := b.agents[k]
	delete(b.agents, k)
	return n
}

// ChargeAnswer charges the answer the transport sent for a turn, of the
// given encoded size, to the turn's agent and session; the charge is
// applied at their next turn.
func (c *Controller) ChargeAnswer(ctx context.Context, resp *protocol.TurnResponse, bytes int) {
	if resp == nil || bytes <= 0 {
		return
	}
	c.budget.addAnswer(c.budget.session(ctx), resp.WorkID, resp.AgentID, tokensOf(bytes))
}

// tokensOf is the budget's token estimate of n bytes: ceil(n/4).
func tokensOf(n int) int { return (n + 3) / 4 }

// loadSession passes the limits and the session's spending to policy.
func (c *Controller) loadSession(ctx context.Context, tx *store.Tx, t *turn) error {
	b := c.cfg.Budget
	t.in.Budget = budgetFacts{
		MaxTokens: b.MaxTokens, ThresholdPermille: permille(b.ThresholdPercent), WorkMaxTokens: b.WorkMaxTokens,
		SessionMaxTokens: b.SessionMaxTokens, RequestMaxPermille: permille(b.RequestMaxPercent),
	}
	id := c.budget.session(ctx)
	s, err := c.sessionRow(ctx, tx, id)
	if err != nil {
		return err
	}
	t.budget.sessionAnswerTokens = c.budget.takeSession(id)
	s.UsedTokens += t.budget.sessionAnswerTokens
	t.budget.session = s
	t.in.Session = sessionFacts{UsedTokens: s.UsedTokens, Turns: s.Turns}
	return nil
}

// sessionRow is the session's spending: the process session's as this
// process last committed it, any other read from the store.
func (c *Controller) sessionRow(ctx context.Context, tx *store.Tx, id string) (*store.Session, error) {
	if row, ok := c.budget.ownRow(id); ok {
		return &row, nil
	}
	return tx.Session(ctx, id)
}

// loadAgentBudget passes the agent's and the work's spending to policy,
// with the agent's answers not charged yet.
func (c *Controller) loadAgentBudget(ctx context.Context, tx *store.Tx, t *turn) error {
	a := t.agent
	t.budget.answerTokens = c.budget.takeAgent(t.work.ID, a.ID)
	a.UsedTokens += t.budget.answerTokens
	t.in.Agent = agentFacts{ID: a.ID, UsedTokens: a.UsedTokens, Turns: a.Turns, SliceTokens: a.SliceTokens}
	used, granted, err := tx.WorkBudget(ctx, t.work.ID)
	if err != nil {
		return err
	}
	t.in.Work.UsedTokens, t.in.Work.GrantedTokens = used+t.budget.answerTokens, granted
	return nil
}

// charge is what this turn's request costs, as policy computed it; without
// a decision (POLICY_ERROR) the request's own tokens.
func (t *turn) charge() int {
	if t.dec.Budget != nil {
		return t.dec.Budget.ChargeTokens
	}
	return t.in.Request.Tokens
}

// chargeSession charges the turn to its MCP session, work or not.
func (c *Controller) chargeSession(ctx context.Context, tx *store.Tx, t *turn) error {
	s := t.budget.session
	if s == nil {
		return nil
	}
	s.UsedTokens += t.charge()
	s.Turns++
	if err := tx.PutSession(ctx, s); err != nil {
		return err
	}
	c.budget.wrote(s)
	return nil
}

// chargeAgent charges the request to the agent and, on its first allowed
// turn, keeps the slice policy granted it: requests that are only ever
// denied (junk under fresh agentIds) are charged to their agentIds and
// their session but take no slice from the work's pool.
func (t *turn) chargeAgent() {
	t.agent.UsedTokens += t.charge()
	if t.agent.SliceTokens == 0 && t.dec.allowed() && t.dec.Budget != nil && t.dec.Budget.SliceTokens > 0 {
		t.agent.SliceTokens = t.dec.Budget.SliceTokens
		t.budget.granted = t.agent.SliceTokens
	}
}

// budgetStatus is what the response says of the budget after this turn.
func (c *Controller) budgetStatus(t *turn) protocol.BudgetStatus {
	b := c.cfg.Budget
	charge := t.charge()
	st := protocol.BudgetStatus{
		Blocked:       t.dec.State == "BLOCKED_BUDGET",
		WorkMaxTokens: b.WorkMaxTokens, SessionMaxTokens: b.SessionMaxTokens,
		Charged: protocol.Charge{RequestTokens: charge, AnswerTokens: t.budget.answerTokens},
	}
	if d := t.dec.Budget; d != nil {
		st.MaxTokens, st.ThresholdTokens = d.SliceTokens, d.ThresholdTokens
		st.SessionThresholdTokens, st.Charged.RequestMaxTokens = d.SessionThresholdTokens, d.RequestMaxTokens
	}
	if s := t.budget.session; s != nil {
		st.SessionUsedTokens = s.UsedTokens
	}
	if t.work == nil {
		st.UsedTokens, st.WorkUsedTokens = charge, charge
		return st
	}
	st.UsedTokens = t.agent.UsedTokens
	st.WorkUsedTokens = t.in.Work.UsedTokens + charge
	st.WorkGrantedTokens = t.in.Work.GrantedTokens + t.budget.granted
	return st
}
