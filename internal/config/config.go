// Package config loads mcpc's layered configuration: .ai/config/base.json,
// then repo.json, then env.local.json (each merged over the last), then
// MCPC_* environment variables, validated against schemas/config.schema.json.
// A file that is missing is skipped; a file that is malformed is an error.
package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"time"

	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/schemas"
)

// Command is a validation command run_targeted_validation may run.
type Command struct {
	Argv       []string `json:"argv"`
	TimeoutSec int      `json:"timeoutSec,omitempty"`
	Dir        string   `json:"dir,omitempty"`
	// Covers are globs of the files the command checks; a change node must be
	// validated by a command that covers its target. Default: every file.
	Covers []string `json:"covers,omitempty"`
	// Required makes the command part of every plan: each change whose
	// target it covers must be validated by it. Default false.
	Required bool `json:"required,omitempty"`
}

// Sandbox configures the OS sandbox validation commands and side effects
// run in (internal/sandbox).
type Sandbox struct {
	// AllowUnsandboxed runs them without a sandbox where none can be made.
	// Default false: they are refused.
	AllowUnsandboxed bool     `json:"allowUnsandboxed"`
	Network          bool     `json:"network"`        // default false
	Env              []string `json:"env"`            // extra variable names passed in
	OutputMaxBytes   int      `json:"outputMaxBytes"` // default 1 MiB
	ReadOnlyPaths    []string `json:"readOnlyPaths"`
	Writable         []string `json:"writable"`
	TmpMaxBytes      int64    `json:"tmpMaxBytes"` // default 512 MiB
}

// Config is the merged configuration. Zero fields take the defaults below.
type Config struct {
	Budget struct {
		// MaxTokens is one agent's budget slice; default 100000.
		MaxTokens int `json:"maxTokens"`
		// ThresholdPercent is the share of a slice (and of the session's
		// ceiling) past which the agent is BLOCKED_BUDGET; default 0.6.
		ThresholdPercent float64 `json:"thresholdPercent"`
		// WorkMaxTokens is a work's pool: each agent of the work is granted
		// a slice of maxTokens from it at its first turn, and an agentId
		// arriving when the pool has no slice left gets none (seed 002's
		// budget slices). Default 5 × maxTokens.
		WorkMaxTokens int `json:"workMaxTokens"`
		// SessionMaxTokens is the ceiling of one MCP session across all its
		// works (seed 003's per-session cap); a new work does not reset it.
		// Default 5 × maxTokens.
		SessionMaxTokens int `json:"sessionMaxTokens"`
		// RequestMaxPercent is the share of an agent's threshold one
		// request may cost; a larger request is denied and charged that
		// much. Default 0.2.
		RequestMaxPercent float64 `json:"requestMaxPercent"`
	} `json:"budget"`
	Pack struct {
		MaxFiles         int   `json:"maxFiles"`         // default 40
		MaxBytes         int64 `json:"maxBytes"`         // default 2 MiB
		EscalateMaxFiles int   `json:"escalateMaxFiles"` // default 10
	} `json:"pack"`
	Index struct {
		Exclude      []string `json:"exclude"`
		MaxFileBytes int64    `json:"maxFileBytes"` // default 1 MiB
	} `json:"index"`
	Scratch struct {
		MaxBytes int64 `json:"maxBytes"` // default 1 MiB
	} `json:"scratch"`
	Request struct {
		MaxBytes int `json:"maxBytes"` // default 4 MiB
	} `json:"request"`
	Store struct {
		// LockTimeoutMs bounds how long one turn holds the store's write
		// lock, and how long a turn's expensive facts (patch dry run,
		// ranking, escalation search) may take to gather. Default 2000.
		LockTimeoutMs int `json:"lockTimeoutMs"`
		// BusyTimeoutMs bounds how long a turn waits for another
		// process's turn to release the write lock. Default 15000.
		BusyTimeoutMs int `json:"busyTimeoutMs"`
	} `json:"store"`
	// Reservations are the collision guard's holds on the files of a change
	// node an agent patched.
	Reservations struct {
		TTLSec int `json:"ttlSec"` // how long a hold lasts without the node finishing; default 1800
	} `json:"reservations"`
	// SideEffects bound gated side effects (git_commit and its hooks).
	SideEffects struct {
		TimeoutSec int `json:"timeoutSec"` // default 600
	} `json:"sideEffects"`
	EvidencePolicy map[string]any `json:"evidencePolicy,omitempty"`
	Sandbox        Sandbox        `json:"sandbox"`
	Validation     struct {
		Commands map[string]Command `json:"commands"`
	} `json:"validation"`
	Codemods struct {
		// Custom codemods by name: internal/patch checks them against the
		// built-ins when the controller starts.
		Custom map[string]CustomCodemod `json:"custom,omitempty"`
	} `json:"codemods"`
	HTTP struct {
		// AllowedHosts are Host header names serve --http accepts besides
		// loopback names and the bound host.
		AllowedHosts []string `json:"allowedHosts"`
		// AllowedOrigins are Origin values accepted besides the server's own.
		AllowedOrigins []string `json:"allowedOrigins"`
	} `json:"http"`
	Bundles    Bundles    `json:"bundles"`
	Graph      Graph      `json:"graph"`
	Connectors Connectors `json:"connectors"`
	Observe    Observe    `json:"observe"`
	Memory     Memory     `json:"memory"`
	Hooks      Hooks      `json:"hooks"`
}

// Hooks configures `mcpc hook` (docs/hooks.md).
type Hooks struct {
	// SafeCommands are shell commands ("npm run build": their leading
	// words) a host's shell may run without asking a person, besides the
	// policy's safeCommands; the policy's network and write lists still
	// deny.
	SafeCommands []string `json:"safeCommands"`
}

// Connectors configures the requirement connectors initialize_work fetches
// through (internal/connector): Jira tickets the prompt names and the
// OpenAPI operations it references.
type Connectors struct {
	// TimeoutMs bounds all connector work of one initialize_work; default 5000.
	TimeoutMs int `json:"timeoutMs"`
	// RequestTimeoutMs bounds one HTTP attempt; default 2000.
	RequestTimeoutMs int `json:"requestTimeoutMs"`
	// MaxRetries are the attempts after the first on 429, 5xx and
	// timeouts; default 2.
	MaxRetries *int `json:"maxRetries"`
	// RequestsPerSecond is the rate limit per process; default 10.
	RequestsPerSecond float64 `json:"requestsPerSecond"`
	// CacheTTLSec is how long a cached answer is used without asking the
	// server again; default 300. Past it, an answer with an ETag is
	// revalidated.
	CacheTTLSec *int `json:"cacheTtlSec"`
	// MaxAttachmentBytes bounds one ticket's or operation's attachment;
	// default 32768.
	MaxAttachmentBytes int `json:"maxAttachmentBytes"`
	Jira               struct {
		BaseURL   string `json:"baseUrl"`
		TokenFile string `json:"tokenFile"` // workspace-relative; default .ai/auth/jira.token
		TokenEnv  string `json:"tokenEnv"`  // read before the file; default MCPC_JIRA_TOKEN
		// KeyPattern finds ticket keys; default [A-Z][A-Z0-9]+-\d+.
		KeyPattern               string   `json:"keyPattern"`
		AcceptanceCriteriaFields []string `json:"acceptanceCriteriaFields"`
		MaxIssues                int      `json:"maxIssues"` // default 5
	} `json:"jira"`
	OpenAPI struct {
		// Specs are workspace-relative files or http(s) URLs.
		Specs         []string `json:"specs"`
		MaxOperations int      `json:"maxOperations"` // default 10
	} `json:"openapi"`
}

// Memory configures how memory learns from friction and how its records
// live (seed 002 "Memory System"; internal/memory).
type Memory struct {
	// RejectionThreshold is how many denials of one signature (code,
	// domain anchor, strategy) make a pending candidate; default 3.
	RejectionThreshold int `json:"rejectionThreshold"`
	// ContestWindowHours is how long a pending record may be contested
	// before it becomes provisional; default 48.
	ContestWindowHours int `json:"contestWindowHours"`
	// ProvisionalWindowHours is how long a provisional record lasts
	// unless approved; default 48.
	ProvisionalWindowHours int `json:"provisionalWindowHours"`
	// AutoPromotable are the enforcement types approved without a person
	// when their provisional window ends; default informational and
	// strategy_signal. plan_rule is never auto-promoted, whatever is listed.
	AutoPromotable []string `json:"autoPromotable"`
	// FrictionLedgerMaxBytes rotates .ai/tmp/friction-ledger.jsonl past
	// this size; default 4 MiB.
	FrictionLedgerMaxBytes int64 `json:"frictionLedgerMaxBytes"`
}

// Graph configures the knowledge graph (mcpc graph, proof chains).
type Graph struct {
	// Backend is "embedded" (default: the runtime store) or "neo4j".
	Backend string `json:"backend"`
	Neo4j   struct {
		URI          string `json:"uri"`
		User         string `json:"user"`
		PasswordFile string `json:"passwordFile"` // workspace-relative or absolute
		Database     string `json:"database"`
	} `json:"neo4j"`
	Anchors struct {
		MaxDepth int      `json:"maxDepth"` // default 3
		Exclude  []string `json:"exclude"`  // default node_modules, .git, .ai, dist, build, ...
	} `json:"anchors"`
	Contracts []string `json:"contracts"` // extra contract files (globs) besides every components.d.ts
	Prose     []string `json:"prose"`     // markdown policy globs; default docs/*.md, skills.md
}

// CustomCodemod is a codemod declared in config, one of two kinds: a named
// sequence of built-in codemods with fixed params, run in order on the
// target file (Steps), or a tree-sitter query over files of one Language
// whose Capture in every match becomes Replace, where ${name} stands for
// the text of the match's capture name. The agent names it and gives no
// params.
type CustomCodemod struct {
	Description string        `json:"description,omitempty"`
	Steps       []CodemodStep `json:"steps,omitempty"`
	Language    string        `json:"language,omitempty"`
	Query       string        `json:"query,omitempty"`
	Capture     string        `json:"capture,omitempty"`
	Replace     string        `json:"replace,omitempty"`
}

// CodemodStep is one built-in codemod of a CustomCodemod.
type CodemodStep struct {
	Codemod string         `json:"codemod"`
	Params  map[string]any `json:"params,omitempty"`
}

// Bundles configures where serve --bundle may load policy from.
type Bundles struct {
	// AllowInsecureHTTP lets a bundle URL use plain http (development only).
	AllowInsecureHTTP bool `json:"allowInsecureHttp"`
	// Verification is the key a bundle's signature must verify against.
	Verification struct {
		// KeyFile is a PEM public key (or an HMAC secret) file; relative to
		// the workspace.
		KeyFile   string   `json:"keyFile"`
		KeyID     string   `json:"keyId"`     // default "default"
		Algorithm string   `json:"algorithm"` // default RS256
		Scope     string   `json:"scope"`
		Exclude   []string `json:"exclude"`
	} `json:"verification"`
}

// maxLayerBytes bounds one configuration file.
const maxLayerBytes = 1 << 20

// Files are the layers, in merge order.
var Files = []string{"base.json", "repo.json", "env.local.json"}

// Load reads the layers under workspace/.ai/config and the environment.
func Load(workspace string) (*Config, error) {
	merged := map[string]any{}
	res, err := pathscope.New(workspace)
	if err != nil {
		return nil, err
	}
	for _, name := range Files {
		// Read without following a symlink or blocking on a FIFO, and
		// bounded: the files are in the repository.
		p := ".ai/config/" + name
		raw, err := res.ReadFile(p, maxLayerBytes)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("config %s: %w", p, err)
		}
		var layer map[string]any
		if err := json.Unmarshal(raw, &layer); err != nil {
			return nil, fmt.Errorf("config %s: %w", p, err)
		}
		merge(merged, layer)
	}
	if err := applyEnv(merged); err != nil {
		return nil, err
	}
	sch, err := schemas.Compile("config.schema.json")
	if err != nil {
		return nil, err
	}
	if probs := schemas.Check(sch, merged); len(probs) > 0 {
		return nil, fmt.Errorf("config: %s: %s", probs[0].Path, probs[0].Message)
	}
	raw, _ := json.Marshal(merged)
	c := &Config{}
	if err := json.Unmarshal(raw, c); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	c.defaults()
	if _, err := regexp.Compile(c.Connectors.Jira.KeyPattern); err != nil {
		return nil, fmt.Errorf("config: connectors.jira.keyPattern: %w", err)
	}
	return c, nil
}

func (c *Connectors) defaults() {
	setInt(&c.TimeoutMs, 5000)
	setInt(&c.RequestTimeoutMs, 2000)
	if c.MaxRetries == nil {
		n := 2
		c.MaxRetries = &n
	}
	if c.RequestsPerSecond == 0 {
		c.RequestsPerSecond = 10
	}
	if c.CacheTTLSec == nil {
		n := 300
		c.CacheTTLSec = &n
	}
	setInt(&c.MaxAttachmentBytes, 32<<10)
	if c.Jira.TokenFile == "" {
		c.Jira.TokenFile = ".ai/auth/jira.token"
	}
	if c.Jira.TokenEnv == "" {
		c.Jira.TokenEnv = "MCPC_JIRA_TOKEN"
	}
	if c.Jira.KeyPattern == "" {
		c.Jira.KeyPattern = `[A-Z][A-Z0-9]+-\d+`
	}
	setInt(&c.Jira.MaxIssues, 5)
	setInt(&c.OpenAPI.MaxOperations, 10)
}

func (c *Config) defaults() {
	setInt(&c.Budget.MaxTokens, 100000)
	setInt(&c.Budget.WorkMaxTokens, 5*c.Budget.MaxTokens)
	setInt(&c.Budget.SessionMaxTokens, 5*c.Budget.MaxTokens)
	if c.Budget.ThresholdPercent == 0 {
		c.Budget.ThresholdPercent = 0.6
	}
	if c.Budget.RequestMaxPercent == 0 {
		c.Budget.RequestMaxPercent = 0.2
	}
	setInt(&c.Pack.MaxFiles, 40)
	setInt64(&c.Pack.MaxBytes, 2<<20)
	setInt(&c.Pack.EscalateMaxFiles, 10)
	setInt64(&c.Index.MaxFileBytes, 1<<20)
	setInt64(&c.Scratch.MaxBytes, 1<<20)
	setInt(&c.Request.MaxBytes, 4<<20)
	setInt(&c.Store.LockTimeoutMs, 2000)
	setInt(&c.Store.BusyTimeoutMs, 15000)
	setInt(&c.Reservations.TTLSec, 1800)
	setInt(&c.SideEffects.TimeoutSec, 600)
	setInt(&c.Sandbox.OutputMaxBytes, 1<<20)
	c.Observe.defaults()
	if c.Graph.Backend == "" {
		c.Graph.Backend = "embedded"
	}
	setInt(&c.Graph.Anchors.MaxDepth, 3)
	setInt(&c.Memory.RejectionThreshold, 3)
	setInt(&c.Memory.ContestWindowHours, 48)
	setInt(&c.Memory.ProvisionalWindowHours, 48)
	setInt64(&c.Memory.FrictionLedgerMaxBytes, 4<<20)
	if c.Memory.AutoPromotable == nil {
		c.Memory.AutoPromotable = []string{"informational", "strategy_signal"}
	}
	c.Connectors.defaults()
	for id, cmd := range c.Validation.Commands {
		if cmd.TimeoutSec == 0 {
			cmd.TimeoutSec = 120
			c.Validation.Commands[id] = cmd
		}
	}
}

// BusyTimeout is Store.BusyTimeoutMs as a duration.
func (c *Config) BusyTimeout() time.Duration {
	return time.Duration(c.Store.BusyTimeoutMs) * time.Millisecond
}

// LockTimeout is Store.LockTimeoutMs as a duration.
func (c *Config) LockTimeout() time.Duration {
	return time.Duration(c.Store.LockTimeoutMs) * time.Millisecond
}

func setInt(p *int, d int) {
	if *p == 0 {
		*p = d
	}
}

func setInt64(p *int64, d int64) {
	if *p == 0 {
		*p = d
	}
}

// merge deep-merges src over dst: objects merge, everything else replaces.
func merge(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				merge(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}

// envVars maps the supported MCPC_* variables to config paths.
var envVars = map[string][]string{
	"MCPC_BUDGET_MAX_TOKENS":          {"budget", "maxTokens"},
	"MCPC_BUDGET_THRESHOLD_PERCENT":   {"budget", "thresholdPercent"},
	"MCPC_BUDGET_WORK_MAX_TOKENS":     {"budget", "workMaxTokens"},
	"MCPC_BUDGET_SESSION_MAX_TOKENS":  {"budget", "sessionMaxTokens"},
	"MCPC_BUDGET_REQUEST_MAX_PERCENT": {"budget", "requestMaxPercent"},
	"MCPC_STORE_LOCK_TIMEOUT_MS":      {"store", "lockTimeoutMs"},
	"MCPC_STORE_BUSY_TIMEOUT_MS":      {"store", "busyTimeoutMs"},
	"MCPC_PACK_MAX_FILES":             {"pack", "maxFiles"},
	"MCPC_PACK_MAX_BYTES":             {"pack", "maxBytes"},
	"MCPC_SCRATCH_MAX_BYTES":          {"scratch", "maxBytes"},
	"MCPC_REQUEST_MAX_BYTES":          {"request", "maxBytes"},
	"MCPC_RESERVATIONS_TTL_SEC":       {"reservations", "ttlSec"},
	"MCPC_SIDE_EFFECTS_TIMEOUT_SEC":   {"sideEffects", "timeoutSec"},
}

// envBools maps the supported boolean MCPC_* variables to config paths.
// The environment is the operator's, like the files: an agent can change
// neither.
var envBools = map[string][]string{
	"MCPC_SANDBOX_ALLOW_UNSANDBOXED": {"sandbox", "allowUnsandboxed"},
	"MCPC_OBSERVE_DISABLED":          {"observe", "disabled"},
}

func applyEnv(m map[string]any) error {
	for name, path := range envBools {
		v, ok := os.LookupEnv(name)
		if !ok || v == "" {
			continue
		}
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("config: %s=%q is not a boolean", name, v)
		}
		setPath(m, path, b)
	}
	for name, path := range envVars {
		v, ok := os.LookupEnv(name)
		if !ok || v == "" {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("config: %s=%q is not a number", name, v)
		}
		setPath(m, path, f)
	}
	return nil
}

// setPath sets m at path, making the objects on the way.
func setPath(m map[string]any, path []string, v any) {
	cur := m
	for _, p := range path[:len(path)-1] {
		next, ok := cur[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[p] = next
		}
		cur = next
	}
	cur[path[len(path)-1]] = v
}
