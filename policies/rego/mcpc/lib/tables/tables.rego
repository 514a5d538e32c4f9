# METADATA
# title: Data tables
# description: |
#   The JSON tables of policies/data, wherever the loader put them. The engine
#   loads policies/data as a data root, so they sit at data.mcpc.*;
#   `opa test policies/` roots the tree at policies/, so the same files land at
#   data.data.mcpc.*. Rules read the tables only through this package.
package mcpc.lib.tables

# Regal does not load JSON data, so each reference to a table below carries
# an unresolved-reference ignore directive.

# METADATA
# scope: document
# description: state name to the verbs offered in it (seed 000 section 3)
states := data.mcpc.states # regal ignore:unresolved-reference

states := data.data.mcpc.states if not data.mcpc.states # regal ignore:unresolved-reference

# METADATA
# scope: document
# description: verb to the state it enters when allowed
transitions := data.mcpc.transitions # regal ignore:unresolved-reference

transitions := data.data.mcpc.transitions if not data.mcpc.transitions # regal ignore:unresolved-reference

# METADATA
# scope: document
# description: states that never change again (and never become BLOCKED_BUDGET)
terminal_states := data.mcpc.terminalStates # regal ignore:unresolved-reference

terminal_states := data.data.mcpc.terminalStates if not data.mcpc.terminalStates # regal ignore:unresolved-reference

# METADATA
# scope: document
# description: verb to the rule categories and plan node kinds that apply to it
verb_policy := data.mcpc.verbPolicy # regal ignore:unresolved-reference

verb_policy := data.data.mcpc.verbPolicy if not data.mcpc.verbPolicy # regal ignore:unresolved-reference

# METADATA
# scope: document
# description: the verb catalogue (description, whenToUse, requiredArgs, optionalArgs)
verbs := data.mcpc.verbs # regal ignore:unresolved-reference

verbs := data.data.mcpc.verbs if not data.mcpc.verbs # regal ignore:unresolved-reference

# METADATA
# scope: document
# description: PlanGraph required fields, envelope checks, citation sources, default evidence policy
plangraph := data.mcpc.plangraph # regal ignore:unresolved-reference

plangraph := data.data.mcpc.plangraph if not data.mcpc.plangraph # regal ignore:unresolved-reference

# METADATA
# scope: document
# description: context pack exclusion globs
packpolicy := data.mcpc.packpolicy # regal ignore:unresolved-reference

packpolicy := data.data.mcpc.packpolicy if not data.mcpc.packpolicy # regal ignore:unresolved-reference

# METADATA
# scope: document
# description: known automation recipes
recipes := data.mcpc.recipes # regal ignore:unresolved-reference

recipes := data.data.mcpc.recipes if not data.mcpc.recipes # regal ignore:unresolved-reference

# METADATA
# scope: document
# description: strategy decision table and context signature signals
strategies := data.mcpc.strategies # regal ignore:unresolved-reference

strategies := data.data.mcpc.strategies if not data.mcpc.strategies # regal ignore:unresolved-reference
