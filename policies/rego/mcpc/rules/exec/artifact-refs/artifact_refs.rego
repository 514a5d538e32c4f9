# METADATA
# title: Artifact refs
# description: |
#   artifactBundleRef and diffSummaryRef, when given, point inside this work's
#   bucket .ai/tmp/work/<workId>/ with no traversal segment.
# custom:
#   code: PLAN_SCOPE_VIOLATION
#   remediation: >-
#     Pass the artifactBundleRef and diffSummaryRef returned by apply_code_patch for this work, or omit
#     them.
#   severity: error
#   suggestedVerb: run_automation_recipe
package mcpc.rules.exec["artifact-refs"]

import data.mcpc.result

report contains violation if {
	input.verb == "run_automation_recipe"
	some field in ["artifactBundleRef", "diffSummaryRef"]
	ref := object.get(input.args, field, null)
	ref != null
	not _inside_work(ref)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s %v is not inside .ai/tmp/work/%s/", [field, ref, input.work.id]),
		"path": sprintf("args.%s", [field]),
	})
}

_inside_work(ref) if {
	is_string(ref)
	startswith(ref, sprintf(".ai/tmp/work/%s/", [input.work.id]))
	not ".." in split(ref, "/")
	not contains(ref, "\\")
}
