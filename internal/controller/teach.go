package controller

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/store"
	"github.com/mcpc/mcpc/schemas"
)

// An agent should be able to learn every shape it must send from the server
// alone: the PlanGraph JSON Schema the server validates with, an example
// plan for this work, and each verb's argument schema from the request
// schema (issue 19).

// planGraphJSONSchema is schemas/plan-graph.schema.json, the same bytes the
// server validates plans with.
func planGraphJSONSchema() json.RawMessage { return json.RawMessage(schemas.PlanGraph) }

// verbArgSchemas maps each verb to the JSON Schema of its args, read from
// schemas/turn-request.schema.json with local $refs inlined, so an agent
// sees apply_code_patch's edits as the server checks them.
var verbArgSchemas = sync.OnceValue(func() map[string]json.RawMessage {
	var doc struct {
		Defs map[string]any `json:"$defs"`
	}
	out := map[string]json.RawMessage{}
	if err := json.Unmarshal(schemas.TurnRequest, &doc); err != nil {
		return out // the embedded schema is tested to parse; an agent then gets names only
	}
	for name, def := range doc.Defs {
		raw, err := json.Marshal(inlineRefs(def, doc.Defs, 0))
		if err == nil {
			out[name] = raw
		}
	}
	return out
})

// inlineRefs replaces {"$ref": "#/$defs/x"} with the definition of x.
func inlineRefs(v any, defs map[string]any, depth int) any {
	if depth > 8 {
		return v
	}
	switch t := v.(type) {
	case map[string]any:
		if ref, ok := t["$ref"].(string); ok && strings.HasPrefix(ref, "#/$defs/") {
			if def, ok := defs[strings.TrimPrefix(ref, "#/$defs/")]; ok {
				return inlineRefs(def, defs, depth+1)
			}
		}
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = inlineRefs(e, defs, depth+1)
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, e := range t {
			l[i] = inlineRefs(e, defs, depth+1)
		}
		return l
	}
	return v
}

// examplePlan is a PlanGraph for this work that the plan rules accept as
// it is: the envelope filled in, one change node on the first pack file a
// configured validation command covers, and the validate node proving it.
// The agent replaces the node contents with its real plan.
func (c *Controller) examplePlan(w *store.Work, envelope map[string]any, files []string, evidencePolicy any) map[string]any {
	plan := map[string]any{}
	for k, v := range envelope {
		plan[k] = v
	}
	file, cmd := c.coveredFile(files)
	symbols := []string{}
	if len(w.Lexemes) > 0 {
		symbols = append(symbols, w.Lexemes[0])
	}
	quote := w.Prompt
	if len(quote) > 200 {
		quote = quote[:200]
	}
	plan["knowledgeStrategyReasons"] = []any{map[string]any{"reason": "why this strategy fits the task, citing files", "evidenceRefs": []string{file}}}
	plan["evidencePolicy"] = evidencePolicy
	plan["planFingerprint"] = "example-1"
	plan["sourceTraceRefs"] = []string{}
	hooks := []any{map[string]any{"recipeId": "run_targeted_validation", "params": map[string]any{"commandId": cmd}}}
	plan["nodes"] = []any{
		map[string]any{
			"nodeId": "change-1", "kind": "change", "dependsOn": []string{},
			"atomicityBoundary": "file", "expectedFailureSignatures": []string{"what a failed validation prints"},
			"correctionCandidateOnFail": "how to correct the change if validation fails",
			"operation":                 "modify", "targetFile": file, "targetSymbols": symbols,
			"whyThisFile":       "why this pack file must change",
			"editIntent":        "what the edit does",
			"citations":         []any{map[string]any{"source": "prompt", "ref": "originalPrompt", "quote": quote}},
			"codeEvidence":      []any{map[string]any{"file": file, "startLine": 1, "endLine": 1}},
			"verificationHooks": hooks,
		},
		map[string]any{
			"nodeId": "validate-1", "kind": "validate", "dependsOn": []string{"change-1"},
			"atomicityBoundary": "file", "expectedFailureSignatures": []string{"what a failed validation prints"},
			"correctionCandidateOnFail": "patch what the validation reports",
			"verificationHooks":         hooks,
			"mapsToNodeIds":             []string{"change-1"},
			"successCriteria":           "the validation command passes",
		},
	}
	return plan
}

// coveredFile picks the first pack file a validation command covers, and
// that command (a command without covers covers every file); with none it
// falls back to the first file and command, which the plan rules will name.
func (c *Controller) coveredFile(files []string) (string, string) {
	ids := make([]string, 0, len(c.cfg.Validation.Commands))
	for id := range c.cfg.Validation.Commands {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, f := range files {
		for _, id := range ids {
			covers := c.cfg.Validation.Commands[id].Covers
			if len(covers) == 0 || slices.ContainsFunc(covers, func(g string) bool { return globRegexp(g).MatchString(f) }) {
				return f, id
			}
		}
	}
	file, cmd := "", ""
	if len(files) > 0 {
		file = files[0]
	}
	if len(ids) > 0 {
		cmd = ids[0]
	}
	return file, cmd
}

// globRegexp compiles a covers glob as the policy's glob.match with "/"
// reads it: ** crosses folders, * and ? do not.
func globRegexp(g string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(g); i++ {
		switch {
		case strings.HasPrefix(g[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(g[i:], "**"):
			b.WriteString(".*")
			i++
		case g[i] == '*':
			b.WriteString("[^/]*")
		case g[i] == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(g[i : i+1]))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return regexp.MustCompile(`^$`)
	}
	return re
}

// describedVerbs are the capabilities an answer describes: all of them on
// initialize_work and when the verb itself was refused (not offered,
// unknown: the agent needs to know what it may call instead); when the
// state changed, the verbs the previous state did not offer; otherwise
// none, since the agent was told already.
func (c *Controller) describedVerbs(t *turn, state string, capabilities []string) []string {
	refused := slices.ContainsFunc(t.dec.Denials, func(d protocol.Denial) bool {
		return d.Code == "VERB_NOT_AVAILABLE" || d.Code == "UNKNOWN_VERB"
	})
	if t.req.Verb == "initialize_work" || refused {
		return capabilities
	}
	if state == t.dec.State {
		return nil
	}
	states, _ := c.engine.Data("data", "mcpc", "states").(map[string]any)
	before := stringList(states[t.dec.State])
	return slices.DeleteFunc(slices.Clone(capabilities), func(v string) bool { return slices.Contains(before, v) })
}
