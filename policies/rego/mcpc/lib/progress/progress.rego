# METADATA
# title: Plan progress
# description: |
#   What complete means for each node kind, and the plan's progress counts.
#   Go reports the accepted plan's nodes as input.nodeStates: groups of nodes
#   with one kind, one status and the same distinct statuses of the validate
#   nodes mapped to them, with their count (a 200-node plan is a handful of
#   groups, so every turn can afford it). A change node is complete when
#   patched and every validate node mapped to it passed; a validate node when
#   passed; a side_effect node when executed; an escalate node when resolved.
package mcpc.lib.progress

# the status that completes a node of each kind
_done := {"change": "patched", "validate": "passed", "side_effect": "executed", "escalate": "resolved"}

# kinds complete only once every validate node mapped to them passed
_checked := {"change"}

_complete(state) if {
	state.status == _done[state.kind]
	not state.kind in _checked
}

_complete(state) if {
	state.status == _done[state.kind]
	state.kind in _checked
	every status in state.validators {
		status == "passed"
	}
}

# METADATA
# description: the indexes of input.nodeStates whose nodes are complete
complete_states := [i | some i, state in input.nodeStates; _complete(state)]

_total := sum([state.count | some state in input.nodeStates])

_completed := sum([input.nodeStates[i].count | some i in complete_states])

# METADATA
# scope: document
# description: the plan's progress counts
default counts := {"totalNodes": 0, "completedNodes": 0, "remainingNodes": 0}

counts := {"totalNodes": _total, "completedNodes": _completed, "remainingNodes": _total - _completed} if {
	count(input.nodeStates) > 0 # no plan, nothing to walk: most turns before a plan
}

# METADATA
# scope: document
# description: the counts and which node states are complete (Go lists the incomplete validations)
default summary := {"totalNodes": 0, "completedNodes": 0, "remainingNodes": 0, "completeStates": []}

summary := object.union(counts, {"completeStates": complete_states}) if count(input.nodeStates) > 0
