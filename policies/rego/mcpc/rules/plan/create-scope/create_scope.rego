# METADATA
# title: Create scope
# description: |
#   A change node with operation create targets a new file beside the work's
#   files: a plain repository-relative path (letters, digits, _ - . @ per
#   segment, no segment starting with a dot, so no hidden file and none of
#   mcpc's own folders), not a file of the context pack (those exist), in a
#   folder that holds a file of the context pack.
# custom:
#   code: PLAN_SCOPE_VIOLATION
#   remediation: >-
#     Create files only in a folder of a contextPack file, under a new name without a leading dot; change an
#     existing file with operation modify.
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["create-scope"]

import data.mcpc.lib.plan
import data.mcpc.lib.turn
import data.mcpc.result

_segment := `[A-Za-z0-9_@-][A-Za-z0-9_@.-]*`

_plain := sprintf("^%s(/%s)*$", [_segment, _segment])

_creates[i] := node if {
	"create" in plan.change_operations
	some i, node in plan.change_nodes
	node.operation == "create"
}

_folder(file) := concat("/", array.slice(parts, 0, count(parts) - 1)) if parts := split(file, "/")

_pack_folders contains _folder(file) if some file in turn.pack_files

report contains violation if {
	some i, node in _creates
	not _plain_path(node.targetFile)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"change node %v creates %v, which is not a plain relative path without hidden segments",
			[node.nodeId, object.get(node, "targetFile", null)],
		),
		"path": sprintf("%s.targetFile", [plan.node_path(i)]),
	})
}

report contains violation if {
	some i, node in _creates
	node.targetFile in turn.pack_files
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"change node %v creates %s, which exists (it is in the context pack); use operation modify",
			[node.nodeId, node.targetFile],
		),
		"path": sprintf("%s.operation", [plan.node_path(i)]),
	})
}

report contains violation if {
	some i, node in _creates
	_plain_path(node.targetFile)
	not _folder(node.targetFile) in _pack_folders
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"change node %v creates %s outside the folders of the context pack's files",
			[node.nodeId, node.targetFile],
		),
		"path": sprintf("%s.targetFile", [plan.node_path(i)]),
	})
}

_plain_path(file) if {
	is_string(file)
	regex.match(_plain, file)
}
