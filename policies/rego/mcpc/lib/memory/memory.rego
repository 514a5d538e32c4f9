# METADATA
# title: Memory records that count
# description: |
#   Which records of .ai/memory/records.json inform retrieval: the enforced
#   ones (approved and provisional; pending, rejected and retired records do
#   not). Go reads the records as facts (input.memoryRecords) before ranking
#   and boosts the files under the domain anchors of the counted records.
package mcpc.lib.memory

_counted_states := {"approved", "provisional"}

# METADATA
# description: the records that count, in file order
counted := [record |
	some record in input.memoryRecords
	record.state in _counted_states
]

# METADATA
# description: the domain anchor folders of the counted records, without an anchor prefix or a leading slash
anchors := [trim_prefix(trim_prefix(anchor, "anchor:"), "/") |
	some record in counted
	some anchor in record.domainAnchorIds
	is_string(anchor)
]

# METADATA
# description: what the memory lane is given
summary := {"counted": [object.get(record, "id", "") | some record in counted], "anchors": anchors}
