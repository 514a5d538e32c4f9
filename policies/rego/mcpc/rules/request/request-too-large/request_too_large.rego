# METADATA
# title: Request too large
# description: |
#   The request costs more tokens (ceil(bytes / 4)) than one request may:
#   requestMaxPercent of an agent's threshold. It is charged that limit and
#   no more, so no single request can spend more than that share of a budget.
# custom:
#   code: REQUEST_TOO_LARGE
#   remediation: >-
#     Send smaller requests: split a plan's or a patch's work over several turns (a patch per file, a
#     scratch file in parts).
#   severity: error
package mcpc.rules.request["request-too-large"]

import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	turn.request_too_large
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(_format, [
			input.request.bytes,
			input.request.tokens,
			turn.request_max_tokens,
			input.budget.requestMaxPermille,
			turn.charge_tokens,
		]),
		"path": "request.bytes",
	})
}

_format := concat(" ", [
	"the request is %d bytes (%d tokens), over the %d tokens one request may cost",
	"(%d/1000 of the agent threshold); it is charged %d",
])
