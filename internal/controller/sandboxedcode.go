package controller

import (
	"context"
	"time"

	"github.com/mcpc/mcpc/internal/jsrun"
)

// codeRunFacts is what policy reads of a run_sandboxed_code run
// (input.codeRun). The code runs before the decision, outside the store's
// lock: it touches nothing, and its outcome and result shape are the facts
// the decision is about.
type codeRunFacts struct {
	Ran     bool   `json:"ran"`
	Outcome string `json:"outcome"`
	Error   string `json:"error"`
	// ResultType is the JSON type of the result ("undefined" when the code
	// settled to nothing).
	ResultType string `json:"resultType"`
	// Keys are an object result's top-level keys (at most sandboxMaxKeys).
	Keys map[string]codeRunValue `json:"keys"`
	// Sample is the start of a string result.
	Sample     string `json:"sample"`
	DurationMs int64  `json:"durationMs"`
}

// codeRunValue is one top-level value of a result: its type, and the start
// of it when it is a string (policy looks for placeholders there).
type codeRunValue struct {
	Type   string `json:"type"`
	Sample string `json:"sample,omitempty"`
}

const (
	sandboxMaxKeys   = 200
	sandboxSampleLen = 120
)

func emptyCodeRunFacts() codeRunFacts { return codeRunFacts{Keys: map[string]codeRunValue{}} }

// prefetchSandboxedCode runs the agent's code outside the store's lock. It
// is called only for a turn the first stage allowed (gatherOutsideLock), so
// no CPU is spent on a turn the gate refuses; the transaction judges again.
func (c *Controller) prefetchSandboxedCode(ctx context.Context, t *turn) {
	code, _ := t.args["code"].(string)
	if t.req.WorkID == "" || code == "" {
		return
	}
	lim := jsrun.DefaultLimits
	if ms, ok := t.args["timeoutMs"].(float64); ok && ms >= 1 && ms <= 10000 {
		lim.Timeout = time.Duration(ms) * time.Millisecond
	}
	if mb, ok := t.args["memoryMb"].(float64); ok && mb >= 1 && mb <= 256 {
		lim.MemoryBytes = uint64(mb) << 20
	}
	// One run at a time per process: each holds a core until its deadline,
	// and an agent may send many (denied turns too are charged, but run).
	select {
	case sandboxSlot <- struct{}{}:
	case <-ctx.Done():
		return
	}
	defer func() { <-sandboxSlot }()
	res := jsrun.Run(ctx, code, t.args["inputs"], lim)
	t.codeRun = &res
}

// sandboxSlot bounds the sandbox runs of a process.
var sandboxSlot = make(chan struct{}, 1)

// codeRunFactsOf describes a run for policy.
func codeRunFactsOf(res *jsrun.Result) codeRunFacts {
	f := emptyCodeRunFacts()
	if res == nil {
		return f
	}
	f.Ran, f.Outcome, f.Error, f.DurationMs = true, res.Outcome, res.Error, res.DurationMs
	if res.Outcome != jsrun.OK {
		return f
	}
	f.ResultType = "undefined"
	if res.JSON != "" {
		f.ResultType = jsrun.TypeOf(res.Value)
	}
	switch v := res.Value.(type) {
	case string:
		f.Sample = clip(v)
	case map[string]any:
		for k, item := range v {
			if len(f.Keys) == sandboxMaxKeys {
				break
			}
			sv := codeRunValue{Type: jsrun.TypeOf(item)}
			if s, ok := item.(string); ok {
				sv.Sample = clip(s)
			}
			f.Keys[k] = sv
		}
	}
	return f
}

func clip(s string) string {
	if len(s) <= sandboxSampleLen {
		return s
	}
	return s[:sandboxSampleLen]
}

// runSandboxed reports the allowed run's result and keeps it with the
// node's artifacts.
func (c *Controller) runSandboxed(t *turn) {
	res := t.codeRun
	if res == nil { // the first stage refused it outside the lock: the code never ran
		t.fail("not_executed", "args.code", "the code did not run; send the turn again")
		return
	}
	nodeID, _ := t.args["planNodeId"].(string)
	dir := artifactDir(t.work.ID, nodeID)
	c.writeArtifact(dir, "sandbox.json", res)
	t.result["executed"] = true
	t.result["outcome"] = res.Outcome
	t.result["value"] = res.Value
	t.result["durationMs"] = res.DurationMs
	t.result["artifactBundleRef"] = dir
}
