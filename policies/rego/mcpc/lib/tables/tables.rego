# METADATA
# title: Data tables
# description: |
#   The JSON tables of policies/data, wherever the loader put them. The
#   embedded engine and `opa test policies/` root the tree at policies/, so
#   the files land at data.data.mcpc.*; a loader given policies/data as a data
#   root puts them at data.mcpc.*. Rules read the tables only through this
#   package. Each table is one rule whose else branch is tried only when the
#   first location is empty, so a lookup costs one read of the data store.
package mcpc.lib.tables

# Regal does not load JSON data, so each reference to a table below carries
# an unresolved-reference ignore directive. data.mcpc is never read whole: in
# the second layout it holds the rules too.

# METADATA
# scope: document
# description: state name to the verbs offered in it (seed 000 section 3)
states := table if {
	table := data.data.mcpc.states # regal ignore:unresolved-reference
} else := table if {
	table := data.mcpc.states # regal ignore:unresolved-reference
}

# METADATA
# scope: document
# description: verb to the state it enters when allowed
transitions := table if {
	table := data.data.mcpc.transitions # regal ignore:unresolved-reference
} else := table if {
	table := data.mcpc.transitions # regal ignore:unresolved-reference
}

# METADATA
# scope: document
# description: states that never change again (and never become BLOCKED_BUDGET)
terminal_states := table if {
	table := data.data.mcpc.terminalStates # regal ignore:unresolved-reference
} else := table if {
	table := data.mcpc.terminalStates # regal ignore:unresolved-reference
}

# METADATA
# scope: document
# description: verb to the rule categories and plan node kinds that apply to it
verb_policy := table if {
	table := data.data.mcpc.verbPolicy # regal ignore:unresolved-reference
} else := table if {
	table := data.mcpc.verbPolicy # regal ignore:unresolved-reference
}

# METADATA
# scope: document
# description: the verb catalogue (description, whenToUse, requiredArgs, optionalArgs)
verbs := table if {
	table := data.data.mcpc.verbs # regal ignore:unresolved-reference
} else := table if {
	table := data.mcpc.verbs # regal ignore:unresolved-reference
}

# METADATA
# scope: document
# description: seed 003's composite confidence weights and continue/retry thresholds
confidence := table if {
	table := data.data.mcpc.confidence # regal ignore:unresolved-reference
} else := table if {
	table := data.mcpc.confidence # regal ignore:unresolved-reference
}

# METADATA
# scope: document
# description: PlanGraph required fields, envelope checks, citation sources, default evidence policy
plangraph := table if {
	table := data.data.mcpc.plangraph # regal ignore:unresolved-reference
} else := table if {
	table := data.mcpc.plangraph # regal ignore:unresolved-reference
}

# METADATA
# scope: document
# description: context pack exclusion globs
packpolicy := table if {
	table := data.data.mcpc.packpolicy # regal ignore:unresolved-reference
} else := table if {
	table := data.mcpc.packpolicy # regal ignore:unresolved-reference
}

# METADATA
# scope: document
# description: mcpc's own files, as globs with reasons; never in a pack, never written by an agent
protected_paths := table if {
	table := data.data.mcpc.protectedPaths # regal ignore:unresolved-reference
} else := table if {
	table := data.mcpc.protectedPaths # regal ignore:unresolved-reference
}

# METADATA
# scope: document
# description: known automation recipes
recipes := table if {
	table := data.data.mcpc.recipes # regal ignore:unresolved-reference
} else := table if {
	table := data.mcpc.recipes # regal ignore:unresolved-reference
}

# METADATA
# scope: document
# description: strategy decision table and context signature signals
strategies := table if {
	table := data.data.mcpc.strategies # regal ignore:unresolved-reference
} else := table if {
	table := data.mcpc.strategies # regal ignore:unresolved-reference
}

# METADATA
# scope: document
# description: built-in codemods of apply_code_patch and their params (policies/data/codemods.json)
codemods := table if {
	table := data.data.mcpc.codemods # regal ignore:unresolved-reference
} else := table if {
	table := data.mcpc.codemods # regal ignore:unresolved-reference
}

# METADATA
# scope: document
# description: host hook tables of mcpc hook - own files, state, shell command lists
hookpolicy := table if {
	table := data.data.mcpc.hookpolicy # regal ignore:unresolved-reference
} else := table if {
	table := data.mcpc.hookpolicy # regal ignore:unresolved-reference
}

# METADATA
# scope: document
# description: what reads as a custom element tag in a change node's text (policies/data/tags.json)
custom_element_tag := table if {
	table := data.data.mcpc.customElementTag # regal ignore:unresolved-reference
} else := table if {
	table := data.mcpc.customElementTag # regal ignore:unresolved-reference
}

# METADATA
# scope: document
# description: what a contracted custom element may carry besides its props (policies/data/contracts.json)
component_contracts := table if {
	table := data.data.mcpc.componentContracts # regal ignore:unresolved-reference
} else := table if {
	table := data.mcpc.componentContracts # regal ignore:unresolved-reference
}
