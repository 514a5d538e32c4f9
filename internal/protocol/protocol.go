// Package protocol holds mcpc's wire types: the TurnRequest an agent sends
// through controller_turn and the TurnResponse it always gets back, denied or
// not. The JSON Schemas in schemas/ describe the same shapes for clients.
package protocol

import "encoding/json"

// SchemaVersion is the TurnResponse and PlanGraph schema version.
const SchemaVersion = "2.0.0"

// MaxIDLength is the longest runSessionId, workId or agentId a request may
// send (schemas/turn-request.schema.json's maxLength for each).
const MaxIDLength = 128

// TurnRequest is the controller_turn tool's input.
type TurnRequest struct {
	Verb           string          `json:"verb"`
	RunSessionID   string          `json:"runSessionId,omitempty"`
	WorkID         string          `json:"workId,omitempty"`
	AgentID        string          `json:"agentId,omitempty"`
	OriginalPrompt string          `json:"originalPrompt,omitempty"`
	Args           json.RawMessage `json:"args,omitempty"`
	TraceMeta      json.RawMessage `json:"traceMeta,omitempty"`
}

// Denial is one structured reason a turn was refused.
type Denial struct {
	Code        string `json:"code"`
	Rule        string `json:"rule"`
	Message     string `json:"message"`
	Path        string `json:"path"`
	Remediation string `json:"remediation"`
	Severity    string `json:"severity"`
}

// SuggestedAction tells a denied agent what to call instead.
type SuggestedAction struct {
	Verb   string         `json:"verb"`
	Reason string         `json:"reason"`
	Args   map[string]any `json:"args,omitempty"`
}

// Progress is the plan's completion as every response reports it.
type Progress struct {
	TotalNodes         int                 `json:"totalNodes"`
	CompletedNodes     int                 `json:"completedNodes"`
	RemainingNodes     int                 `json:"remainingNodes"`
	PendingValidations []PendingValidation `json:"pendingValidations"`
}

// PendingValidation is a validate node that has not passed yet.
type PendingValidation struct {
	NodeID string `json:"nodeId"`
	Status string `json:"status"`
}

// BudgetStatus is the calling agent's token budget: what this turn was
// charged and where the agent, its work and its MCP session stand (after
// this turn's request; the answer is charged at the agent's next turn).
type BudgetStatus struct {
	// MaxTokens is the agent's slice of the work's pool (0: none granted).
	MaxTokens       int  `json:"maxTokens"`
	UsedTokens      int  `json:"usedTokens"`
	ThresholdTokens int  `json:"thresholdTokens"`
	Blocked         bool `json:"blocked"`
	// The work's pool (budget.workMaxTokens): what its agents used
	// together and the slices granted from it.
	WorkMaxTokens     int `json:"workMaxTokens"`
	WorkUsedTokens    int `json:"workUsedTokens"`
	WorkGrantedTokens int `json:"workGrantedTokens"`
	// The MCP session across all its works (budget.sessionMaxTokens).
	SessionMaxTokens       int `json:"sessionMaxTokens"`
	SessionUsedTokens      int `json:"sessionUsedTokens"`
	SessionThresholdTokens int `json:"sessionThresholdTokens"`
	// Charged is what this turn charged.
	Charged Charge `json:"charged"`
}

// Charge is what one turn cost: its request (ceil(bytes/4), at most
// RequestMaxTokens) and the answers to earlier turns not charged yet (an
// answer's size is known only once it is sent).
type Charge struct {
	RequestTokens    int `json:"requestTokens"`
	AnswerTokens     int `json:"answerTokens"`
	RequestMaxTokens int `json:"requestMaxTokens"`
}

// Scope names the roots the agent's work is confined to.
type Scope struct {
	WorktreeRoot string `json:"worktreeRoot"`
	ScratchRoot  string `json:"scratchRoot"`
}

// KnowledgeStrategy is the strategy in force for the work.
type KnowledgeStrategy struct {
	StrategyID       string           `json:"strategyId"`
	ContextSignature map[string]any   `json:"contextSignature,omitempty"`
	Reasons          []StrategyReason `json:"reasons"`
}

// StrategyReason is one piece of evidence for the strategy; a plan copies
// these into knowledgeStrategyReasons.
type StrategyReason struct {
	Reason       string   `json:"reason"`
	EvidenceRefs []string `json:"evidenceRefs"`
}

// SubAgentHints recommends splitting the work.
type SubAgentHints struct {
	Recommended     bool     `json:"recommended"`
	SuggestedSplits []string `json:"suggestedSplits"`
}

// VerbDescription documents one verb for the agent.
type VerbDescription struct {
	Description  string   `json:"description"`
	WhenToUse    string   `json:"whenToUse"`
	RequiredArgs []string `json:"requiredArgs"`
	OptionalArgs []string `json:"optionalArgs"`
	// Args is the JSON Schema of the verb's args, from
	// schemas/turn-request.schema.json (what the server checks).
	Args json.RawMessage `json:"args,omitempty"`
	// Example is a valid args object for the verb (policies/data/verbs.json).
	Example json.RawMessage `json:"example,omitempty"`
}

// TurnResponse is every controller_turn result.
type TurnResponse struct {
	RunSessionID      string                     `json:"runSessionId"`
	WorkID            string                     `json:"workId"`
	AgentID           string                     `json:"agentId"`
	State             string                     `json:"state"`
	Outcome           string                     `json:"outcome,omitempty"`
	Capabilities      []string                   `json:"capabilities"`
	VerbDescriptions  map[string]VerbDescription `json:"verbDescriptions"`
	Scope             Scope                      `json:"scope"`
	Result            map[string]any             `json:"result"`
	DenyReasons       []string                   `json:"denyReasons"`
	Denials           []Denial                   `json:"denials"`
	Advisories        []Denial                   `json:"advisories,omitempty"`
	SuggestedAction   *SuggestedAction           `json:"suggestedAction,omitempty"`
	KnowledgeStrategy KnowledgeStrategy          `json:"knowledgeStrategy"`
	BudgetStatus      BudgetStatus               `json:"budgetStatus"`
	Progress          Progress                   `json:"progress"`
	OriginalPrompt    string                     `json:"originalPrompt"`
	TraceRef          string                     `json:"traceRef"`
	SchemaVersion     string                     `json:"schemaVersion"`
	SubAgentHints     SubAgentHints              `json:"subAgentHints"`
	ContextPack       map[string]any             `json:"contextPack,omitempty"`
	PlanGraphSchema   map[string]any             `json:"planGraphSchema,omitempty"`
	Strategy          map[string]any             `json:"strategy,omitempty"`
	PackInsufficiency map[string]any             `json:"packInsufficiency,omitempty"`
}
