# METADATA
# title: mcpc decision
# description: |
#   The queries Go evaluates per turn (docs/policy-input.md). Rules run in two
#   stages. stage1 judges request, gate and scope rules on cheap facts (state,
#   budget, canonical paths, pack membership); when it allows and says
#   verbStage, Go gathers the verb's facts (patch dry run, ranking, hashes) and
#   evaluates decision, which adds the other categories the verb names in
#   policies/data/states.json (verbPolicy). A read turn never evaluates plan
#   rules, and nothing is gathered about a file the first stage refuses.
package mcpc.main

import data.mcpc.lib.confidence
import data.mcpc.lib.enforcement
import data.mcpc.lib.memory
import data.mcpc.lib.pack
import data.mcpc.lib.plan
import data.mcpc.lib.progress
import data.mcpc.lib.strategy
import data.mcpc.lib.tables
import data.mcpc.lib.turn

# category is bound before the walk over data.mcpc.rules[category], so only the
# categories that apply to this verb are evaluated (a read turn never touches
# plan rules); Regal's mixed-iteration rule cannot express that, hence the
# ignore directives below.
_gate_stage contains violation if {
	some category in ["request", "gate"]

	# regal ignore:mixed-iteration
	some violation in data.mcpc.rules[category][_].report
}

# execution rules judge what went wrong executing an allowed decision; most
# turns have nothing to judge, and skip the walk
_gate_stage contains violation if {
	input.execution.failures != []

	# regal ignore:mixed-iteration
	some violation in data.mcpc.rules.execution[_].report
}

_has_error(violations) if {
	some violation in violations
	violation.severity == "error"
}

# scope rules judge canonical paths and pack membership, cheap facts Go has
# before it gathers anything about a file's content: they belong to the first
# stage, so a file outside the pack is never dry-run, hashed or searched
_scope_stage contains violation if {
	not _has_error(_gate_stage)
	"scope" in _categories

	# regal ignore:mixed-iteration
	some violation in data.mcpc.rules.scope[_].report
}

_first_stage := _gate_stage | _scope_stage

# the rule categories this verb names (policies/data/states.json verbPolicy),
# looked up once per evaluation
_categories := tables.verb_policy[input.verb].categories

_first_stage_blocks if _has_error(_first_stage)

# the categories of the verb stage: the verb's own, less those of the first
_verb_categories := [category |
	some category in _categories
	category != "scope"
]

# input.stage is the stage Go evaluates: "request" (the first) or "verb";
# an input without it (a record from before stages) is judged whole
default _verb_stage_on := true

_verb_stage_on := false if input.stage == "request"

_second_stage contains violation if {
	_verb_stage_on
	not _first_stage_blocks
	some category in _verb_categories

	# regal ignore:mixed-iteration
	some violation in data.mcpc.rules[category][_].report
}

# repository-local rules (.ai/policies, packages under mcpc.local.rules): extra
# violations of the verb's categories, never a way to lift a default deny
# (scope rules judge in the first stage, the verb's other categories in the
# verb stage, as the defaults do)
_second_stage contains violation if {
	not _first_stage_blocks
	some category in _categories
	_local_stage_on(category)

	# regal ignore:mixed-iteration,unresolved-reference
	some violation in data.mcpc.local.rules[category][_].report
}

_local_stage_on("scope")

_local_stage_on(category) if {
	category != "scope"
	_verb_stage_on
}

# every violation of this turn (the second stage is empty when the first blocks:
# the verb's own rules would only repeat why)
_violations := _first_stage | _second_stage

# codes that explain a denied turn best come first; then request and gate, then the verb's own rules
_priority := {"UNKNOWN_VERB": 0, "WORK_NOT_FOUND": 1, "BUDGET_EXCEEDED": 2, "VERB_NOT_AVAILABLE": 3}

_rank(v) := object.get(_priority, v.code, 4) if v in _gate_stage

else := 5

# [rank, code, path, message, rule, violation]: a deterministic order
_ordered := sort([[_rank(v), v.code, v.path, v.message, v.rule, v] | some v in _violations])

_public(v) := object.remove(v, ["suggestedVerb"])

_errors := [entry[5] | some entry in _ordered; entry[5].severity == "error"]

_blocked if _has_error(_violations)

# METADATA
# scope: document
# description: the structured denials of this turn, in a deterministic order
default denials := []

denials := [_public(v) | some v in _errors] if _blocked

# METADATA
# scope: document
# description: warnings; they never block
default advisories := []

advisories := [_public(entry[5]) | some entry in _ordered; entry[5].severity != "error"] if count(_violations) > 0

# METADATA
# scope: document
# description: the turn is allowed when no rule denies it
default allow := false

allow if not _blocked

_transition := tables.transitions[input.verb]

_moves if {
	allow
	_transition
	not turn.terminal
}

# METADATA
# scope: document
# description: |
#   the state the agent is in after this turn: the transition when allowed,
#   otherwise the effective state (BLOCKED_BUDGET for an agent over budget)
next_state := _transition if _moves

else := turn.state

# METADATA
# scope: document
# description: |
#   the work's stored state after this turn; BLOCKED_BUDGET is per agent and is
#   never a work's state
work_state := _transition if _moves

else := input.state

# METADATA
# description: the verbs offered in nextState
capabilities := turn.verbs_in(next_state)

_default_verb := input.verb if {
	turn.known_verb
	input.verb in capabilities
}

_default_verb := capabilities[0] if {
	not input.verb in capabilities
	count(capabilities) > 0
}

# METADATA
# scope: document
# description: on deny, the verb to call instead and why (the first denial decides)
suggested_action := {"verb": _errors[0].suggestedVerb, "reason": _errors[0].message} if _errors[0].suggestedVerb

suggested_action := {"verb": _default_verb, "reason": _errors[0].message} if not _errors[0].suggestedVerb

_search_scoped if tables.verb_policy[input.verb].searchScoped

# METADATA
# scope: document
# description: what Go must honour while executing an allowed decision
default obligations := {}

obligations := {"searchScope": _search_scope} if _search_scoped

# the pack, or the pack files args.files names (pack-scope denies any other),
# in pack order and once each
_search_scope := [file | some file in input.pack.files; file in input.args.files] if is_array(input.args.files)

else := input.pack.files

_pack_verb if input.verb in {"initialize_work", "escalate"}

# A request that does not meet its schema builds no pack, so its pack part
# (the strategy's words, the selection) is not evaluated: its prompt and
# lexemes may be of any size (a 4 MB prompt cost 2.5 s and 400 MB of
# strategy words before its INVALID_ARGS denial).
_builds_pack if {
	_pack_verb
	count(object.get(input, ["request", "errors"], [])) == 0
}

_suggestion_part := {"suggestedAction": suggested_action} if not allow

_suggestion_part := {} if allow

_pack_part := part if {
	_builds_pack
	part := {
		"strategy": strategy.selected,
		"pack": pack.selection,
		"outcome": pack.outcome,
		"planGraphSchema": plan.guidance,
		"policies": enforcement.pack_policies,
		"memories": enforcement.pack_memories,
		"enforcementObligations": enforcement.obligations,
		"activeMemories": memory.active_for(pack.selection.files),
	}
}

_pack_part := {} if not _builds_pack

default _insufficiency_part := {}

_insufficiency_part := {"packInsufficiency": pack.insufficiency} if {
	_builds_pack
	pack.outcome == "pack_insufficient"
}

_base := {
	"allow": allow,
	"state": turn.state,
	"nextState": next_state,
	"workState": work_state,
	"capabilities": capabilities,
	"denials": denials,
	"advisories": advisories,
	"obligations": obligations,
	"budget": turn.budget,
	"progress": progress.summary,
	"verbStage": _verb_stage_wanted,
}

# A quiet turn (nothing to report, no state to move to, no pack to return) is
# most of what an agent does: reads and searches. Every field of its decision
# has its plain value (allowed, the state it is in, nothing denied), so it is
# built from the turn facts directly instead of evaluating the rules that would
# each arrive there; test_quiet_turns_decide_like_the_base checks they agree.
_quiet if {
	count(_violations) == 0
	not _transition
	not _pack_verb
}

# METADATA
# title: decision
# description: |
#   the decision object of docs/policy-input.md; verbStage is true only in a
#   first stage (input.stage "request") that asks for the verb stage
# entrypoint: true
decision := {
	"allow": true,
	"state": turn.state,
	"nextState": turn.state,
	"workState": input.state,
	"capabilities": turn.offered,
	"denials": [],
	"advisories": [],
	"obligations": obligations,
	"budget": turn.budget,
	"progress": progress.summary,
	# a quiet turn is allowed and not initialize_work or escalate
	"verbStage": _verb_stage_asked,
} if {
	_quiet
} else := object.union(_base, _confidence_part) if {
	# any other allowed turn outside initialize_work and escalate adds nothing
	# to the base but a plan's confidence
	allow
	not _pack_verb
} else := object.union_n([_base, _suggestion_part, _pack_part, _insufficiency_part, _confidence_part])

# a first stage asks for the verb stage when the verb has more to judge:
# categories beyond the first stage's, or a pack to select from ranked
# candidates; an allowing first stage then says verbStage. Every read turn
# evaluates this, hence no negation or comprehension.
default _verb_stage_asked := false

_verb_stage_asked if {
	input.stage == "request"
	some category in _categories
	category != "scope"
}

default _verb_stage_wanted := false

_verb_stage_wanted if {
	allow
	_verb_stage_asked
}

_verb_stage_wanted if {
	input.stage == "request"
	allow
	_pack_verb
}

# METADATA
# title: stage1
# description: |
#   the first stage's decision, evaluated with input.stage "request": decision
#   over the request, gate and scope rules alone. Its verbStage is true when it
#   allows and the verb has a second stage; Go then gathers the verb's facts and
#   evaluates decision with input.stage "verb". When verbStage is false this is
#   the turn's decision. Undefined (a POLICY_ERROR) for any other input.stage.
# entrypoint: true
stage1 := decision if input.stage == "request"

# a plan decision carries seed 003's composite confidence and outcome
default _confidence_part := {}

_confidence_part := {"confidence": confidence.denied} if {
	input.verb == "submit_execution_plan"
	not _first_stage_blocks
	_blocked
}

_confidence_part := {"confidence": confidence.allowed} if {
	input.verb == "submit_execution_plan"
	not _first_stage_blocks
	not _blocked
}
