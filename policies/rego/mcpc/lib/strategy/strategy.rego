# METADATA
# title: Strategy selection
# description: |
#   Seed 000 section 13 in its fixed order: a base ContextSignature from the
#   prompt, lexemes and the fetched Jira tickets' fields (input.requirements:
#   summary, issue type, labels, components), then the override layer (input.strategySignals, from
#   strategy_signal memories and graph policy signals, later entries winning),
#   then the decision table of policies/data/strategies.json applied to the
#   overridden signature, then the strategy overrides a domain bundle ships
#   (data.mcpcdomain.<domain>.strategyOverrides). The overridden signature
#   also says which proof chains initialize_work walks (proof_chains).
package mcpc.lib.strategy

import data.mcpc.lib.enforcement
import data.mcpc.lib.tables

_signals := tables.strategies.signals

_lexemes := [lower(lexeme) | some lexeme in input.lexemes]

# the fetched tickets' fields (absent in documents older than connectors)
_requirement_text := object.get(input, ["requirements", "text"], [])

_text := lower(concat(" ", array.flatten([input.prompt, input.lexemes, _requirement_text])))

# the API operations fetched from the configured specs (connectors.openapi)
_fetched_operations := object.get(input, ["requirements", "fetched", "swagger"], [])

default _has_swagger := false

_has_swagger if count(_swagger_words) > 0

_has_swagger if count(_fetched_operations) > 0

_words := {word | some word in regex.split(`[^a-z0-9_-]+`, _text)}

_adp_lexemes := [lexeme | some lexeme in _lexemes; startswith(lexeme, "adp-")]

_adp_prompt if regex.match(`(^|[^a-z0-9])adp-[a-z0-9]`, lower(input.prompt))

default _adp := false

_adp if count(_adp_lexemes) > 0

_adp if _adp_prompt

_debug_words := [word | some word in _signals.debugWords; word in _words]

_swagger_words := array.concat(
	[word | some word in _signals.swaggerWords; word in _words],
	[phrase | some phrase in _signals.swaggerPhrases; contains(_text, phrase)],
)

_ag_grid_words := [word | some word in _signals.agGridWords; contains(_text, word)]

_federation_words := [word | some word in object.get(_signals, "federationWords", []); contains(_text, word)]

_jira_keys := regex.find_n(_signals.jiraPattern, concat(" ", array.concat([input.prompt], input.lexemes)), -1)

_task_type := "migration" if _adp

_task_type := "debug" if {
	not _adp
	count(_debug_words) > 0
}

_task_type := "api_contract" if {
	not _adp
	count(_debug_words) == 0
	"api" in _words
	"contract" in _words
}

_task_type := "feature" if {
	not _adp
	count(_debug_words) == 0
	not _api_contract_words
}

_api_contract_words if {
	"api" in _words
	"contract" in _words
}

# METADATA
# description: the ContextSignature computed from prompt and lexemes alone
base_signature := {
	"migrationAdpDetected": _adp,
	"taskTypeGuess": _task_type,
	"hasSwagger": _has_swagger,
	"mentionsAgGrid": count(_ag_grid_words) > 0,
	"mentionsFederation": count(_federation_words) > 0,
	"hasJira": count(_jira_keys) > 0,
}

# seed spellings of the features, mapped to the signature's keys
_aliases := {
	"migration_adp_present": "migrationAdpDetected",
	"migration_adp_detected": "migrationAdpDetected",
	"task_type_guess": "taskTypeGuess",
	"has_swagger": "hasSwagger",
	"mentions_ag_grid": "mentionsAgGrid",
	"mentions_federation": "mentionsFederation",
	"has_jira": "hasJira",
}

_feature(flag) := object.get(_aliases, flag, flag)

# the override layer: strategy_signal memories in force (mcpc.lib.enforcement
# decides which), then the signals Go passes (graph policy signals)
_strategy_signals := array.flatten([enforcement.memory_strategy_signals, _graph_signals, input.strategySignals])

_migration_words := {"migrate", "migrating", "migration"}

# a graph policy signal (seed 000 section 13 step 3): the prompt asks for a
# migration and the files retrieval found use tags that have MigrationRules,
# though neither names an adp-* tag
default _graph_signals := []

_graph_signals := [{
	"featureFlag": "migrationAdpDetected",
	"value": true,
	"source": sprintf("graph:MigrationRule:%s", [rule_ids[0]]),
}] if {
	some word in _migration_words
	word in _words
	rule_ids := sort({enforcement.rules_by_tag[tag].id |
		some tags in input.enforcement.fileTags
		some tag in tags
		enforcement.rules_by_tag[tag]
	})
	count(rule_ids) > 0
}

_override_flags contains _feature(signal.featureFlag) if some signal in _strategy_signals

# the last signal for a feature wins
_overrides[flag] := values[count(values) - 1] if {
	some flag in _override_flags
	values := [signal.value | some signal in _strategy_signals; _feature(signal.featureFlag) == flag]
}

_override_sources[flag] := sources if {
	some flag in _override_flags
	sources := [object.get(signal, "source", "strategySignal") |
		some signal in _strategy_signals
		_feature(signal.featureFlag) == flag
	]
}

# METADATA
# description: the ContextSignature after the override layer
signature := object.union(base_signature, _overrides)

_candidates contains "migration_adp_to_sdf" if signature.migrationAdpDetected == true

_candidates contains "debug_symptom_trace" if signature.taskTypeGuess == "debug"

_candidates contains "api_contract_feature" if signature.hasSwagger == true

_candidates contains "api_contract_feature" if signature.taskTypeGuess == "api_contract"

_candidates contains "ui_aggrid_feature" if signature.mentionsAgGrid == true

# neither grid, migration, debug nor API work: no chain to follow
_candidates contains "general_change"

# the first strategy of the fixed priority order whose condition holds
_table_id := [id | some id in tables.strategies.order; id in _candidates][0]

# the tags in play: those the gathered files use and those the prompt and
# lexemes name
_tags_in_play := {tag | some tags in input.enforcement.fileTags; some tag in tags} | {tag |
	some tag in regex.find_n(`[a-z][a-z0-9]*(?:-[a-z0-9]+)+`, _text, -1)
}

# a domain bundle's override holds when every condition of its when holds;
# an override with no condition, an unknown one, or a strategy the table
# does not have never applies
_when_holds(when, "tags") if {
	some tag in when.tags
	tag in _tags_in_play
}

_when_holds(when, "words") if {
	some word in when.words
	word in _words
}

_when_holds(when, "taskTypes") if signature.taskTypeGuess in when.taskTypes

_applies(override) if {
	override.strategy in object.keys(tables.strategies.table)
	count(object.keys(override.when)) > 0
	every field in object.keys(override.when) {
		_when_holds(override.when, field)
	}
}

_bundle_choices := [override | some override in enforcement.strategy_overrides; _applies(override)]

# METADATA
# scope: document
# description: |
#   the strategy: the first domain bundle override that applies, else the
#   decision table's choice
chosen_id := _bundle_choices[0].strategy if count(_bundle_choices) > 0

chosen_id := _table_id if count(_bundle_choices) == 0

# METADATA
# scope: document
# description: which layer chose the strategy, and from what source
decided_by := {"layer": "bundleOverride", "source": _bundle_choices[0].source} if count(_bundle_choices) > 0

decided_by := {"layer": "decisionTable", "source": "policies/data/strategies.json"} if count(_bundle_choices) == 0

# METADATA
# description: |
#   the proof chains (seed 002) initialize_work walks: one per signature
#   feature that holds in the table's proofChains, in name order. A task
#   that names neither a grid nor a federation walks none.
proof_chains := sort([chain |
	some flag, chain in object.get(tables.strategies, "proofChains", {})
	signature[flag] == true
])

# METADATA
# description: |
#   what initialize_work asks before it walks chains (engine.StrategyQuery):
#   the chains, and the strategy and signature that chose them
chain_decision := {
	"proofChains": proof_chains,
	"strategyId": chosen_id,
	"contextSignature": signature,
	"decidedBy": decided_by,
}

_reasons contains reason if {
	some lexeme in _adp_lexemes
	text := sprintf("migrationAdpDetected: lexeme %s", [lexeme])
	reason := {"reason": text, "evidenceRefs": [sprintf("lexeme:%s", [lexeme])]}
}

_reasons contains reason if {
	_adp_prompt
	reason := {"reason": "migrationAdpDetected: the prompt names an adp-* component", "evidenceRefs": ["prompt"]}
}

_reasons contains reason if {
	some word in _debug_words
	reason := {"reason": sprintf("taskTypeGuess debug: the prompt says %q", [word]), "evidenceRefs": ["prompt"]}
}

_reasons contains {"reason": sprintf("hasSwagger: %q", [word]), "evidenceRefs": ["prompt"]} if {
	some word in _swagger_words
}

_reasons contains reason if {
	some ref in _fetched_operations
	text := sprintf("hasSwagger: operation %s fetched", [ref])
	reason := {"reason": text, "evidenceRefs": [sprintf("swagger:%s", [ref])]}
}

_reasons contains {"reason": sprintf("mentionsAgGrid: %q", [word]), "evidenceRefs": ["prompt"]} if {
	some word in _ag_grid_words
}

_reasons contains reason if {
	some key in _jira_keys
	reason := {"reason": sprintf("hasJira: ticket %s", [key]), "evidenceRefs": [sprintf("jira:%s", [key])]}
}

_reasons contains reason if {
	some flag, value in _overrides
	text := sprintf("override: %s set to %v", [flag, value])
	source := _override_sources[flag][count(_override_sources[flag]) - 1]
	reason := {"reason": text, "evidenceRefs": [sprintf("strategySignal:%s", [flag]), source]}
}

_reasons contains {"reason": sprintf("mentionsFederation: %q", [word]), "evidenceRefs": ["prompt"]} if {
	some word in _federation_words
}

_reasons contains reason if {
	count(_bundle_choices) > 0
	override := _bundle_choices[0]
	text := sprintf("bundle override: %s%s", [override.strategy, _override_note(override)])
	reason := {"reason": text, "evidenceRefs": [override.source]}
}

_reasons contains {"reason": "default: no migration, debug, API or ag-Grid signal", "evidenceRefs": []} if {
	chosen_id == "general_change"
	count(_bundle_choices) == 0
}

default _override_note(_) := ""

_override_note(override) := sprintf(" (%s)", [override.note]) if {
	is_string(override.note)
	override.note != ""
}

# METADATA
# description: the strategy object of the decision
selected := object.union(tables.strategies.table[chosen_id], {
	"strategyId": chosen_id,
	"contextSignature": signature,
	"reasons": sort([reason | some reason in _reasons]),
	"decidedBy": decided_by,
	"proofChains": proof_chains,
})
