# METADATA
# title: Codemod arguments
# description: |
#   An apply_code_patch codemod edit names a codemod of policies/data/codemods.json
#   or of config (codemods.custom, input.config.codemods) and gives exactly the
#   params its entry lists, each of the listed type, length and pattern, with the
#   required ones, one of each requiredOneOf group and all or none of each
#   requiredTogether group. A configured codemod takes no params. Checked on the
#   request alone, before any file is read.
# custom:
#   code: INVALID_ARGS
#   remediation: >-
#     Name a codemod listed for apply_code_patch (rename_identifier_in_file, update_import_specifier,
#     update_route_path_literal, rewrite_template_tag or one configured in codemods.custom) with the params
#     its entry documents.
#   severity: error
#   suggestedVerb: apply_code_patch
package mcpc.rules.request["codemod-args"]

import data.mcpc.lib.tables
import data.mcpc.result

# _edits are the codemod edits of the request, by index
_edits[i] := edit if {
	input.verb == "apply_code_patch"
	is_array(input.args.edits)
	some i, edit in input.args.edits
	is_object(edit)
	edit.op == "codemod"
	is_string(edit.codemod)
}

# _custom are the configured codemods. Read as input.config rather than with
# object.get(input, ...), so that the engine sees the rule reads only the
# config, verb and args members and keeps its value between turns that
# share them (internal/engine/cache.go).
default _custom := {}

_custom := input.config.codemods

_spec(name) := tables.codemods[name]

_spec(name) := _custom[name] if not tables.codemods[name]

_params(edit) := object.get(edit, "params", {})

_given(edit, param) if object.get(_params(edit), param, null) != null

report contains violation if {
	some i, edit in _edits
	not _spec(edit.codemod)
	names := sort(object.keys(tables.codemods) | object.keys(_custom))
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("unknown codemod %s (one of %s)", [result.quoted(edit.codemod), concat(", ", names)]),
		"path": sprintf("args.edits[%d].codemod", [i]),
	})
}

report contains violation if {
	some i, edit in _edits
	spec := _spec(edit.codemod)
	some param, _ in _params(edit)
	not spec.params[param]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("codemod %s has no param %s", [edit.codemod, result.quoted(param)]),
		"path": sprintf("args.edits[%d].params.%s", [i, param]),
	})
}

report contains violation if {
	some i, edit in _edits
	spec := _spec(edit.codemod)
	some param, p in spec.params
	object.get(p, "required", false) == true
	not _given(edit, param)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("codemod %s requires param %q", [edit.codemod, param]),
		"path": sprintf("args.edits[%d].params", [i]),
	})
}

report contains violation if {
	some i, edit in _edits
	spec := _spec(edit.codemod)
	some group in object.get(spec, "requiredOneOf", [])
	every param in group {
		not _given(edit, param)
	}
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("codemod %s requires one of the params %s", [edit.codemod, concat(", ", group)]),
		"path": sprintf("args.edits[%d].params", [i]),
	})
}

report contains violation if {
	some i, edit in _edits
	spec := _spec(edit.codemod)
	some group in object.get(spec, "requiredTogether", [])
	given := [param | some param in group; _given(edit, param)]
	count(given) > 0
	count(given) < count(group)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("codemod %s takes the params %s together", [edit.codemod, concat(", ", group)]),
		"path": sprintf("args.edits[%d].params", [i]),
	})
}

report contains violation if {
	some i, edit in _edits
	spec := _spec(edit.codemod)
	some param, value in _params(edit)
	some problem in _value_problems(spec.params[param], value)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("codemod %s param %s %s", [edit.codemod, param, problem]),
		"path": sprintf("args.edits[%d].params.%s", [i, param]),
	})
}

# every way value misses its param entry p
_value_problems(p, value) := {"must be a string"} if {
	p.type == "string"
	not is_string(value)
}

_value_problems(p, value) := _string_problems(p, value) if {
	p.type == "string"
	is_string(value)
}

_value_problems(p, value) := {"must be an object"} if {
	p.type == "object"
	not is_object(value)
}

_value_problems(p, value) := _entry_problems(p, value) if {
	p.type == "object"
	is_object(value)
}

_string_problems(p, value) := {sprintf("is longer than %d characters", [max_length]) |
	max_length := p.maxLength
	count(value) > max_length
} | {sprintf("must match %s", [pattern]) |
	pattern := p.pattern
	not regex.match(pattern, value)
}

_entry_problems(p, value) := ({sprintf("entry %q must be a string", [key]) |
	some key, entry in value
	not is_string(entry)
} | {sprintf("key %q must match %s", [key, pattern]) |
	pattern := p.keyPattern
	some key, _ in value
	not regex.match(pattern, key)
}) | {sprintf("entry %q must match %s", [key, pattern]) |
	pattern := p.valuePattern
	some key, entry in value
	is_string(entry)
	not regex.match(pattern, entry)
}
