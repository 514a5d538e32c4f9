package controller

import (
	"github.com/mcpc/mcpc/internal/patch"
	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/requirements"
	"github.com/mcpc/mcpc/schemas"
)

// input is the policy input document; docs/policy-input.md is its contract.
// Every field is always present so rules need no existence checks.
type input struct {
	// Stage is the stage being evaluated: "request" (the first, on cheap
	// facts) or "verb" (stages.go).
	Stage            string               `json:"stage"`
	Verb             string               `json:"verb"`
	State            string               `json:"state"`
	Request          requestFacts         `json:"request"`
	Work             workFacts            `json:"work"`
	Agent            agentFacts           `json:"agent"`
	Budget           budgetFacts          `json:"budget"`
	Session          sessionFacts         `json:"session"`
	Prompt           string               `json:"prompt"`
	Lexemes          []string             `json:"lexemes"`
	Args             map[string]any       `json:"args"`
	Paths            map[string]pathFacts `json:"paths"`
	Pack             packFacts            `json:"pack"`
	PackInsufficient bool                 `json:"packInsufficient"`
	Candidates       []Candidate          `json:"candidates"`
	Envelope         envelopeFacts        `json:"envelope"`
	Plan             planFacts            `json:"plan"`
	Submission       map[string]any       `json:"submission"`
	SubmissionFacts  submissionFacts      `json:"submissionFacts"`
	Reads            map[string]string    `json:"reads"`
	Patch            patchFacts           `json:"patch"`
	Gates            gateFacts            `json:"gates"`
	NodeStates       []nodeState          `json:"nodeStates"`
	Config           configMember         `json:"config"`
	Sandbox          sandboxMember        `json:"sandbox"`
	StrategySignals  []map[string]any     `json:"strategySignals"`
	Search           searchFacts          `json:"search"`
	Execution        executionFacts       `json:"execution"`
	Intents          intentsFacts         `json:"intents"`
	SandboxedCode    codeRunFacts         `json:"sandboxedCode"`
	Reservation      reservationFacts     `json:"reservation"`
	Recipe           recipeFacts          `json:"recipe"`
	SideEffect       sideEffectFacts      `json:"sideEffect"`
	Enforcement      enforcementFacts     `json:"enforcement"`
	MemoryLifecycle  memoryLifecycleFacts `json:"memoryLifecycle"`
	Requirements     requirements.Facts   `json:"requirements"`
}

// searchFacts is what search_codebase_text's pattern costs: the instructions
// its compiled program has and the limit, compared by policy.
type searchFacts struct {
	Regex           bool `json:"regex"`
	Instructions    int  `json:"instructions"`
	MaxInstructions int  `json:"maxInstructions"`
}

// executionFacts are what went wrong while Go executed an allowed decision,
// before anything was written: the decision is evaluated again with them
// (docs/policy-input.md, "Execution facts").
type executionFacts struct {
	Failures []executionFailure `json:"failures"`
}

type executionFailure struct {
	// Reason is a stable code: io_error, file_changed, not_executable,
	// command_not_started, lock_timeout, store_busy, outcome_unrecorded,
	// side_effect_unrecorded.
	Reason  string `json:"reason"`
	Path    string `json:"path"`
	Message string `json:"message"`
	// Stage is the part of the turn that held the store's lock when it
	// reached its bound (lock_timeout): load, request, verb, execute,
	// record; LimitMs is the bound (lock_timeout) or the wait (store_busy).
	Stage   string `json:"stage,omitempty"`
	LimitMs int    `json:"limitMs,omitempty"`
	// Commit is the commit a gated side effect made (side_effect_unrecorded):
	// it exists whatever the store holds.
	Commit string `json:"commit,omitempty"`
}

type requestFacts struct {
	Bytes  int `json:"bytes"`
	Tokens int `json:"tokens"`
	// Decoded is false when the request was too large to read or could not
	// be decoded: its verb and ids were salvaged, its args are unknown.
	Decoded bool              `json:"decoded"`
	Errors  []schemas.Problem `json:"errors"`
	// ErrorsLeftOut counts the shape errors past the first
	// maxRequestProblems, which Errors does not list.
	ErrorsLeftOut int `json:"errorsLeftOut"`
}

// maxRequestProblems is how many shape errors a request's facts list: a
// request of 5,000 malformed edits had 20,000, each a denial, and its
// answer was 51 MB built in 3.7 s while the turn held its work. The first
// ones say what is wrong; the count says how much.
const maxRequestProblems = 20

// addProblems lists shape errors up to maxRequestProblems and counts the
// rest.
func (r *requestFacts) addProblems(problems ...schemas.Problem) {
	room := max(0, maxRequestProblems-len(r.Errors))
	if len(problems) > room {
		r.ErrorsLeftOut += len(problems) - room
		problems = problems[:room]
	}
	r.Errors = append(r.Errors, problems...)
}

type workFacts struct {
	ID    string `json:"id"`
	Given bool   `json:"given"`
	Found bool   `json:"found"`
	// UsedTokens is what the work's agents have used together.
	UsedTokens int `json:"usedTokens"`
	// GrantedTokens is the budget slices granted from the work's pool.
	GrantedTokens int `json:"grantedTokens"`
}

type agentFacts struct {
	ID         string `json:"id"`
	UsedTokens int    `json:"usedTokens"`
	Turns      int    `json:"turns"`
	// SliceTokens is the slice granted to the agent; 0 before its first
	// turn (or when the pool had none left).
	SliceTokens int `json:"sliceTokens"`
}

// pathFacts are pathscope's facts plus the content hash write verbs need.
type pathFacts struct {
	pathscope.Facts
	Hash string `json:"hash,omitempty"`
	// Destination and ScratchRoot (write_scratch_file): the worktree path
	// the write lands at and the work's scratch folder, for the rule that
	// keeps writes off mcpc's own files.
	Destination string `json:"destination,omitempty"`
	ScratchRoot string `json:"scratchRoot,omitempty"`
}

type packFacts struct {
	Ref   string   `json:"ref"`
	Hash  string   `json:"hash"`
	Files []string `json:"files"`
	// RankingCutShort is set when the pack's ranking (initialize_work) or
	// search (escalate) ran out of its deadline: the pack holds fewer
	// files than it would, which the ranking-cut-short rule reports.
	RankingCutShort *rankingCutShort `json:"rankingCutShort,omitempty"`
}

// rankingCutShort is what a ranking that outran its deadline did: the
// candidates it ranked, how many of them the secret scan could not reach
// in time (left out), and the deadline.
type rankingCutShort struct {
	LimitMs   int `json:"limitMs"`
	Ranked    int `json:"ranked"`
	Unscanned int `json:"unscanned"`
}

type planFacts struct {
	Accepted bool                `json:"accepted"`
	Started  bool                `json:"started"`
	Nodes    map[string]nodeFact `json:"nodes"`
}

// nodeFact is an accepted node as policy sees it: its plan fields and
// the status Go recorded while executing.
type nodeFact struct {
	planNode
	Status string `json:"status"`
}

// patchFacts is the dry run of apply_code_patch's edits: Go tries them on
// the current content; policy decides what an inapplicable patch means.
type patchFacts struct {
	Applicable bool              `json:"applicable"`
	Problems   []schemas.Problem `json:"problems"`
	Edits      int               `json:"edits"`
	// Elements and Contracts: the contracted custom elements the patch
	// introduces or changes, and those tags' contracts (contracts.go).
	Elements  []elementFact            `json:"elements"`
	Contracts map[string]contractFacts `json:"contracts"`
}

type gateFacts struct {
	Approved []string `json:"approved"`
}

type configFacts struct {
	EvidencePolicy     map[string]any `json:"evidencePolicy"`
	ValidationCommands []string       `json:"validationCommands"`
	// ValidationCovers holds the covers globs of the commands that declare
	// them; a command absent from it covers every file.
	ValidationCovers map[string][]string `json:"validationCovers"`
	// ValidationRequired lists the commands marked required, sorted.
	ValidationRequired []string `json:"validationRequired"`
	ScratchMaxBytes    int64    `json:"scratchMaxBytes"`
	// Codemods are the codemods config declares (codemods.custom), by name,
	// in the shape of policies/data/codemods.json.
	Codemods map[string]patch.Spec `json:"codemods"`
	// Pack holds the pack's limits; policy selects the files within them
	// (lib/pack) and Go writes exactly what it selected.
	Pack packLimits `json:"pack"`
	// SideEffectExecutors are the side effect types Go can carry out;
	// policy decides which node may run (side-effect-executor).
	SideEffectExecutors []string `json:"sideEffectExecutors"`
}

// configMember and sandboxMember are built once per Controller, with
// their text (inputjson.go).
type (
	configMember  = encoded[configFacts]
	sandboxMember = encoded[sandboxFacts]
)

type packLimits struct {
	MaxFiles         int   `json:"maxFiles"`
	MaxBytes         int64 `json:"maxBytes"`
	EscalateMaxFiles int   `json:"escalateMaxFiles"`
}

// decision is data.mcpc.main.decision as Go reads it.
type decision struct {
	Allow             *bool             `json:"allow"`
	State             string            `json:"state"`
	NextState         string            `json:"nextState"`
	WorkState         string            `json:"workState"`
	Capabilities      []string          `json:"capabilities"`
	Denials           []protocol.Denial `json:"denials"`
	Advisories        []protocol.Denial `json:"advisories"`
	SuggestedAction   map[string]any    `json:"suggestedAction"`
	Strategy          map[string]any    `json:"strategy"`
	Pack              decidedPack       `json:"pack"`
	Outcome           string            `json:"outcome"`
	PackInsufficiency map[string]any    `json:"packInsufficiency"`
	Obligations       decidedObligation `json:"obligations"`
	Budget            *decidedBudget    `json:"budget"`
	// VerbStage is set by the first stage (data.mcpc.main.stage1): it
	// allows and the verb has a second stage to gather facts for.
	VerbStage bool `json:"verbStage"`
	// PlanGraphSchema is what the response tells the agent a plan must
	// hold (initialize_work, escalate), less the envelope.
	PlanGraphSchema map[string]any `json:"planGraphSchema"`
	// Progress is lib/progress's summary of input.nodeStates (pointer: a
	// failed decision has none).
	Progress *decidedProgress `json:"progress"`
	// Policies, Memories and EnforcementObligations are what the pack
	// shows of the enforcement bundle (initialize_work, escalate).
	Policies               []map[string]any `json:"policies"`
	Memories               []map[string]any `json:"memories"`
	EnforcementObligations []map[string]any `json:"enforcementObligations"`
	// Confidence is a plan decision's composite confidence and outcome
	// (seed 003): {score, outcome, components}.
	Confidence map[string]any `json:"confidence"`
	// ActiveMemories are lib/memory's active records whose domain
	// anchors cover a pack file.
	ActiveMemories []map[string]any `json:"activeMemories"`
}

type decidedPack struct {
	Files    []string         `json:"files"`
	Excluded []map[string]any `json:"excluded"`
}

type decidedObligation struct {
	SearchScope []string `json:"searchScope"`
}

func (d *decision) allowed() bool { return d.Allow != nil && *d.Allow }

func (d *decision) hasProgress() bool { return d.Progress != nil }
