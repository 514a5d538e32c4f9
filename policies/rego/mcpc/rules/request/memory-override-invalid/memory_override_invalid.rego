# METADATA
# title: Memory override not ingested
# description: |
#   A file of .ai/memory/overrides/ that fails schemas/memory-record.schema.json
#   (or cannot be read), a records file that cannot be read, or a knowledge
#   graph that did not answer is reported with the pack as an advisory: it is
#   left in place for a person to fix and nothing it says is enforced. It
#   never blocks the turn.
# custom:
#   code: PACK_INSUFFICIENT
#   remediation: >-
#     Ask a person to fix the file named in the message (its schema is schemas/memory-record.schema.json);
#     it is ingested at the next initialize_work.
#   severity: warning
package mcpc.rules.request["memory-override-invalid"]

import data.mcpc.result

report contains violation if {
	input.enforcement.gathered
	some problem in input.enforcement.problems
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s %s not used: %s", [
			problem.source, problem.file,
			concat("; ", [sprintf("%s %s", [p.path, p.message]) | some p in problem.problems]),
		]),
		"path": sprintf("enforcement.%s", [problem.source]),
	})
}
