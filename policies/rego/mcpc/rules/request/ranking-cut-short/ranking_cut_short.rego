# METADATA
# title: Ranking cut short
# description: |
#   initialize_work's ranking, or escalate's search, ran out of its deadline
#   (Go reports input.pack.rankingCutShort: how many candidates were ranked,
#   and how many of them the secret scan could not reach in time and so left
#   out). The pack holds fewer files than it would have: reported with the
#   pack as an advisory, never a block.
# custom:
#   code: PACK_INSUFFICIENT
#   remediation: >-
#     The pack may lack files it would otherwise hold: escalate with the files, symbols or
#     lexemes you miss, or ask a person to raise store.lockTimeoutMs on a loaded machine.
#   severity: warning
package mcpc.rules.request["ranking-cut-short"]

import data.mcpc.result

report contains violation if {
	input.verb in {"initialize_work", "escalate"}
	cut := input.pack.rankingCutShort
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(_message, [cut.limitMs, cut.ranked, cut.unscanned]),
		"path": "pack.rankingCutShort",
	})
}

_message := "ranking ran past its %d ms deadline: %d candidates ranked, %d left out unscanned"
