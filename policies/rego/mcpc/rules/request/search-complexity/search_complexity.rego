# METADATA
# title: Search complexity
# description: |
#   search_codebase_text's regular expression may compile to at most
#   input.search.maxInstructions RE2 instructions: a search costs its compiled
#   program's size times the text it reads, and a pattern of nested repeats
#   over a large pack would run for minutes. Go compiles the pattern and
#   reports the count (input.search); literal patterns are bounded by the
#   request schema's length limit instead.
# custom:
#   code: SEARCH_PATTERN_TOO_COMPLEX
#   remediation: >-
#     Use a literal pattern (regex false), or a regular expression with fewer or smaller repeats; narrow
#     the search with args.files.
#   severity: error
#   suggestedVerb: search_codebase_text
package mcpc.rules.request["search-complexity"]

import data.mcpc.result

report contains violation if {
	input.verb == "search_codebase_text"
	input.search.regex
	input.search.instructions > input.search.maxInstructions
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("the pattern compiles to %d instructions, over the limit of %d", [
			input.search.instructions,
			input.search.maxInstructions,
		]),
		"path": "args.pattern",
	})
}
