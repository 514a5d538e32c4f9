package memory

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Scaffolder builds a candidate's proposal from a denial: which kind of
// memory the pattern calls for and a few-shot a person completes before
// approving it. It proposes; whether a record applies is lib/memory's
// decision, and a scaffolded plan_rule or strategy_signal never applies
// before a person approved it.
type Scaffolder struct {
	// Describe is a rule's METADATA description, "" when unknown.
	Describe func(rule string) string
}

func (l *Learner) scaffolder() Scaffolder { return Scaffolder{Describe: l.describe} }

// maxScaffoldNodes bounds the plan nodes one scaffold cites.
const maxScaffoldNodes = 8

// EnforcementFor is the enforcement type a repeated denial calls for, by
// the family of the rule that denied it: plan rules ask for a plan_rule
// that makes plans meet them up front, a strategy mismatch for a
// strategy_signal, write and read rules for a worked example (few_shot),
// the rest (request shape, gates, hooks) for an informational note.
func EnforcementFor(rule, code, planStrategy string) string {
	category, name := ruleFamily(rule)
	switch {
	case name == "strategy-mismatch" || strings.Contains(code, "STRATEGY"):
		if _, ok := strategyFlags[planStrategy]; ok {
			return "strategy_signal"
		}
		return "informational"
	case category == "plan":
		return "plan_rule"
	case category == "exec" || category == "execution" || category == "scope":
		return "few_shot"
	default:
		return "informational"
	}
}

// ruleFamily splits mcpc.rules.plan["weak-verification"] (or the
// repository-local mcpc.local.rules....) into its family and name.
func ruleFamily(rule string) (category, name string) {
	rest, ok := strings.CutPrefix(rule, "mcpc.rules.")
	if !ok {
		rest, _ = strings.CutPrefix(rule, "mcpc.local.rules.")
	}
	category, name, _ = strings.Cut(rest, "[")
	return category, strings.Trim(name, `"]`)
}

// denyCodePattern is the record schema's planRule.denyCode.
var denyCodePattern = regexp.MustCompile(`^[A-Z][A-Z0-9_]{2,63}$`)

// strategyFlags is the ContextSignature override that leads lib/strategy
// to each strategy (policies/data/strategies.json's order): what a
// strategy_signal scaffold proposes when agents keep declaring a strategy
// the server did not select. A person confirms it before it applies.
var strategyFlags = map[string]struct {
	flag  string
	value any
}{
	"migration_adp_to_sdf": {"migrationAdpDetected", true},
	"debug_symptom_trace":  {"taskTypeGuess", "debug"},
	"api_contract_feature": {"taskTypeGuess", "api_contract"},
	"ui_aggrid_feature":    {"mentionsAgGrid", true},
}

// candidate is a pending record in seed 002's dimensional model with a
// scaffolded few-shot (and, for the binding types, a scaffolded planRule
// or strategySignal) a person completes before approving.
func (sc Scaffolder) candidate(id string, sig Signature, d Denial, count int, now time.Time) Record {
	stamp := now.UTC().Format(time.RFC3339)
	anchors := []any{}
	if sig.Anchor != "" {
		anchors = append(anchors, "anchor:"+sig.Anchor)
	}
	where := "the workspace root"
	if sig.Anchor != "" {
		where = sig.Anchor
	}
	i := max(0, slices.Index(d.Codes, sig.Code))
	message, rule, remediation := at(d.Messages, i), at(d.Rules, i), at(d.Remediations, i)
	kind := EnforcementFor(rule, sig.Code, d.PlanStrategy)
	if kind == "plan_rule" && !denyCodePattern.MatchString(sig.Code) {
		kind = "informational" // a plan_rule denies with a code of the record schema's form
	}
	strategy := sig.Strategy
	if strategy == "" {
		strategy = "any strategy"
	}
	nodes := nodesIn(d.Nodes, sig.Anchor)
	rec := Record{
		"id":               id,
		"trigger":          "rejection_pattern",
		"phase":            phaseOf(d.Verb),
		"domainAnchorIds":  anchors,
		"enforcementType":  kind,
		"rejectionCodes":   []any{sig.Code},
		"originStrategyId": sig.Strategy,
		"note": fmt.Sprintf("%d %s denials of %s in %s under %s; a scaffolded %s: review and complete it before approving.",
			count, sig.Code, d.Verb, where, strategy, kind),
		"state":       "pending",
		"createdAt":   stamp,
		"updatedAt":   stamp,
		"traceRef":    fmt.Sprintf("friction:%s#%d", d.Work, d.Seq),
		"signature":   map[string]any{"code": sig.Code, "anchor": sig.Anchor, "strategy": sig.Strategy},
		"occurrences": count,
		"scaffolded":  true,
		"fewShot":     sc.fewShot(sig, d, where, message, rule, remediation, count, nodes),
	}
	switch kind {
	case "plan_rule":
		rec["planRule"] = planRuleScaffold(sig, message)
	case "strategy_signal":
		f := strategyFlags[d.PlanStrategy]
		rec["strategySignal"] = map[string]any{"featureFlag": f.flag, "value": f.value,
			"reason": fmt.Sprintf("agents declared %s %d times in %s where the server selected %s", d.PlanStrategy, count, where, strategy)}
	}
	return rec
}

// fewShot is the scaffolded example: what to do (the rule's remediation),
// the denied attempt (before, from the plan nodes involved, or the denied
// call), what the rule wanted instead (after: an accepted plan's nodes in
// the same domain fill it in when one comes), and why the attempt is
// wrong (the rule's METADATA description and the denial's message).
func (sc Scaffolder) fewShot(sig Signature, d Denial, where, message, rule, remediation string, count int, nodes []PlanNode) map[string]any {
	why := strings.TrimSpace(sc.Describe(rule))
	switch {
	case why == "":
		why = message
	case message != "":
		why = strings.TrimSpace(why) + " Here: " + message
	}
	instruction := fmt.Sprintf("Before %s on files in %s, satisfy %s.", d.Verb, where, sig.Code)
	if remediation != "" {
		instruction += " " + remediation
	}
	attempt := d.Verb
	if files := filesIn(d.Files, sig.Anchor); len(files) > 0 {
		for i, f := range files {
			files[i] = plain(f)
		}
		attempt += " " + strings.Join(files, ", ")
	}
	before := renderNodes(nodes)
	if before == "" {
		before = attempt
	}
	cited := make([]any, 0, len(nodes))
	for _, n := range nodes {
		cited = append(cited, map[string]any{"nodeId": plain(n.ID), "kind": plain(n.Kind), "targetFile": plain(n.TargetFile)})
	}
	return map[string]any{
		"instruction": instruction,
		"before":      before,
		"after":       "",
		"antiPattern": fmt.Sprintf("%s, denied %d times with %s in %s.", attempt, count, sig.Code, where),
		"whyWrong":    why,
		"rule":        rule,
		"planNodes":   cited,
		"scaffolded":  true,
	}
}

// planRuleScaffold proposes a rule in the one plan_rule shape: plans
// touching the anchor's files under the same strategy need a validate
// step (an accepted plan's validation hooks replace it), denied with the
// code agents kept meeting.
func planRuleScaffold(sig Signature, message string) map[string]any {
	cond := map[string]any{}
	if sig.Anchor != "" {
		cond["fileGlobs"] = []any{sig.Anchor + "/**"}
	}
	if sig.Strategy != "" {
		cond["strategyIds"] = []any{sig.Strategy}
	}
	rule := map[string]any{"condition": cond, "requiredSteps": []any{map[string]any{"kind": "validate"}}, "denyCode": sig.Code}
	if message != "" {
		rule["message"] = truncate("learned from friction: "+message, 2000)
	}
	return rule
}

// learnAccepted fills the "after" of open scaffolds in the domains an
// accepted plan changes: its nodes there are what the denied ones should
// have been. A plan_rule scaffold takes the accepted plan's validation
// steps as its requiredSteps while it is still pending.
func (l *Learner) learnAccepted(p AcceptedPlan) error {
	if !l.res.Resolve(RecordsFile).Exists {
		return nil
	}
	return Update(l.res, func(records []Record) ([]Record, bool, error) {
		changed := false
		for _, r := range records {
			if str(r, "trigger") != "rejection_pattern" || r["scaffolded"] != true || (str(r, "state") != "pending" && str(r, "state") != "provisional") {
				continue
			}
			sig, _ := r["signature"].(map[string]any)
			fs, _ := r["fewShot"].(map[string]any)
			if sig == nil || fs == nil || fs["after"] != "" {
				continue
			}
			if s, _ := sig["strategy"].(string); s != "" && s != p.Strategy {
				continue
			}
			anchor, _ := sig["anchor"].(string)
			nodes := nodesIn(p.Nodes, anchor)
			if !slices.ContainsFunc(nodes, func(n PlanNode) bool { return n.TargetFile != "" }) {
				continue
			}
			fs["after"] = renderNodes(append(nodes, validations(p.Nodes)...))
			fs["afterRef"] = "plan:" + p.Work
			if rule, _ := r["planRule"].(map[string]any); rule != nil && str(r, "state") == "pending" {
				if steps := requiredSteps(p.Nodes); len(steps) > 0 {
					rule["requiredSteps"] = steps
				}
			}
			r["updatedAt"] = p.At.UTC().Format(time.RFC3339)
			changed = true
		}
		return records, changed, nil
	})
}

// nodesIn are the nodes whose target lies in the anchor ("" is the
// workspace: every node), at most maxScaffoldNodes.
func nodesIn(nodes []PlanNode, anchor string) []PlanNode {
	out := []PlanNode{}
	for _, n := range nodes {
		if len(out) == maxScaffoldNodes {
			break
		}
		if anchor == "" || strings.HasPrefix(n.TargetFile, anchor+"/") {
			out = append(out, n)
		}
	}
	return out
}

func filesIn(files []string, anchor string) []string {
	out := []string{}
	for _, f := range files {
		if len(out) < maxScaffoldNodes && (anchor == "" || strings.HasPrefix(f, anchor+"/")) {
			out = append(out, f)
		}
	}
	return out
}

// validations are a plan's validate nodes (they target no file).
func validations(nodes []PlanNode) []PlanNode {
	var out []PlanNode
	for _, n := range nodes {
		if n.Kind == "validate" && len(out) < 4 {
			out = append(out, n)
		}
	}
	return out
}

// requiredSteps are a plan's distinct validation steps as plan_rule steps.
func requiredSteps(nodes []PlanNode) []any {
	out := []any{}
	seen := map[Hook]bool{}
	for _, n := range validations(nodes) {
		for _, h := range n.Hooks {
			if seen[h] || len(out) == 16 {
				continue
			}
			seen[h] = true
			step := map[string]any{"kind": "validate"}
			if h.RecipeID != "" {
				step["recipeId"] = h.RecipeID
			}
			if h.CommandID != "" {
				step["commandId"] = h.CommandID
			}
			out = append(out, step)
		}
	}
	return out
}

// renderNodes writes nodes as the lines of an example plan: kinds, ids,
// target files and validation hooks, never an agent's free text (its
// editIntent). A few-shot reaches other agents once provisional, before a
// person read it: what one agent wrote must not become another's
// instructions.
func renderNodes(nodes []PlanNode) string {
	lines := make([]string, 0, len(nodes))
	for _, n := range nodes {
		line := plain(n.Kind) + " " + plain(n.ID)
		if n.TargetFile != "" {
			line += " " + plain(n.TargetFile)
		}
		for _, h := range n.Hooks {
			line += fmt.Sprintf(" [%s %s]", plain(h.RecipeID), plain(h.CommandID))
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// plain is an identifier or path as a scaffold quotes it: printable, one
// line, at most 200 bytes.
func plain(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
	return truncate(s, 200)
}

func phaseOf(verb string) string {
	switch verb {
	case "submit_execution_plan":
		return "planning"
	case "apply_code_patch", "run_automation_recipe", "execute_gated_side_effect", "signal_task_complete", "run_sandboxed_code":
		return "execution"
	}
	return "exploration"
}

func at(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return ""
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
