# METADATA
# title: Memory records that inform retrieval
# description: |
#   The memory lane of ranking: the domain anchors of the records in force
#   (active, the one activation decision of lifecycle.rego, on the same
#   clock and windows). Go gives the records and the clock as
#   input.enforcement and the windows as input.memoryLifecycle before
#   ranking, and boosts the files under these anchors.
package mcpc.lib.memory

# METADATA
# description: the domain anchor folders of the active records, without an anchor prefix or a leading slash
anchors := [folder |
	some i in active_indexes
	some folder in _folders_at[i]
	folder != ""
]

# METADATA
# description: what the memory lane is given
summary := {"counted": [record.id | some record in active], "anchors": anchors}
