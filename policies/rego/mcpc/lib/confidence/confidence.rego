# METADATA
# title: Plan confidence
# description: |
#   Seed 003's composite confidence of a plan decision:
#   C = w.selfScore * the plan's own confidence (planGraph.confidence, 0..1;
#   defaultSelfScore when absent) + w.validator * the rule validator score (1
#   when no rule denies, else 0) + w.heuristics * the share of change nodes
#   that stand on their evidence (not on the low-evidence path and not
#   migrating under a MigrationRule that is not approved). The outcome is
#   continue at or above continueAt, retry at or above retryAt, escalate
#   below. Weights and thresholds are policies/data/confidence.json. It informs
#   the agent; the plan rules alone decide acceptance.
package mcpc.lib.confidence

import data.mcpc.lib.enforcement
import data.mcpc.lib.plan
import data.mcpc.lib.tables

_table := tables.confidence

_self := input.submission.confidence if {
	is_number(input.submission.confidence)
	input.submission.confidence >= 0
	input.submission.confidence <= 1
} else := _table.defaultSelfScore

_weak := enforcement.weak

default _heuristics := 0

_heuristics := 1 - (count(_weak) / plan.change_count) if plan.change_count > 0

_round(x) := round(x * 1000) / 1000

# METADATA
# description: the confidence of a plan decision its rules allow
allowed := _result(1, _self, _heuristics, _table)

# METADATA
# description: the confidence of a plan decision its rules deny
denied := _result(0, _self, _heuristics, _table)

_result(validator, self_score, heuristics, table) := {
	"score": _round(score),
	"outcome": _outcome(score, table),
	"components": {"selfScore": self_score, "validator": validator, "heuristics": _round(heuristics)},
} if {
	w := table.weights
	score := ((w.selfScore * self_score) + (w.validator * validator)) + (w.heuristics * heuristics)
}

_outcome(score, table) := "continue" if score >= table.continueAt

_outcome(score, table) := "retry" if {
	score < table.continueAt
	score >= table.retryAt
}

_outcome(score, table) := "escalate" if score < table.retryAt
