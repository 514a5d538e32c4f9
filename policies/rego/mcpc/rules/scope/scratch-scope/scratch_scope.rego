# METADATA
# title: Scratch scope
# description: |
#   write_scratch_file writes only below the work's scratch/ folder: the
#   relativePath must have no problem other than not_found (a new file), and the
#   content must fit config.scratchMaxBytes (counted in UTF-8 bytes).
# custom:
#   code: SCRATCH_SCOPE_VIOLATION
#   remediation: >-
#     Use a plain relative path inside scratch/ (no traversal, absolute, escaped or linked paths) and keep
#     the content under the configured size.
#   severity: error
#   suggestedVerb: write_scratch_file
package mcpc.rules.scope["scratch-scope"]

import data.mcpc.lib.paths
import data.mcpc.result

report contains violation if {
	input.verb == "write_scratch_file"
	some problem in input.paths.relativePath.problems
	problem != "not_found"
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%q %s", [input.paths.relativePath.raw, paths.reason(problem)]),
		"path": "args.relativePath",
	})
}

report contains violation if {
	input.verb == "write_scratch_file"
	not input.paths.relativePath
	violation := result.fail(rego.metadata.chain(), {
		"message": "write_scratch_file has no resolvable relativePath",
		"path": "args.relativePath",
	})
}

report contains violation if {
	input.verb == "write_scratch_file"
	size := _utf8_bytes(input.args.content)
	size > input.config.scratchMaxBytes
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("content is %d bytes, more than the scratch limit of %d", [size, input.config.scratchMaxBytes]),
		"path": "args.content",
	})
}

# byte length of a string: base64 has 4 characters per 3 bytes, less padding
_utf8_bytes(s) := size if {
	encoded := base64.encode(s)
	padding := count(encoded) - count(trim_right(encoded, "="))
	size := ((count(encoded) / 4) * 3) - padding
}
