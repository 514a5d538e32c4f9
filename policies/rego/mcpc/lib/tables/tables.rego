# METADATA
# title: Data tables
# description: |
#   The JSON tables of policies/data, wherever the loader put them. The engine
#   loads policies/data as a data root, so they sit at data.mcpc.*;
#   `opa test policies/` roots the tree at policies/, so the same files land at
#   data.data.mcpc.*. Rules read the tables only through this package.
package mcpc.lib.tables

# METADATA
# description: state name to the verbs offered in it (seed 000 section 3)
states := data.mcpc.states

states := data.data.mcpc.states if not data.mcpc.states

# METADATA
# description: verb to the state it enters when allowed
transitions := data.mcpc.transitions

transitions := data.data.mcpc.transitions if not data.mcpc.transitions

# METADATA
# description: states that never change again (and never become BLOCKED_BUDGET)
terminal_states := data.mcpc.terminalStates

terminal_states := data.data.mcpc.terminalStates if not data.mcpc.terminalStates

# METADATA
# description: verb to the rule categories and plan node kinds that apply to it
verb_policy := data.mcpc.verbPolicy

verb_policy := data.data.mcpc.verbPolicy if not data.mcpc.verbPolicy

# METADATA
# description: the verb catalogue (description, whenToUse, requiredArgs, optionalArgs)
verbs := data.mcpc.verbs

verbs := data.data.mcpc.verbs if not data.mcpc.verbs

# METADATA
# description: PlanGraph required fields, envelope checks, citation sources, default evidence policy
plangraph := data.mcpc.plangraph

plangraph := data.data.mcpc.plangraph if not data.mcpc.plangraph

# METADATA
# description: context pack exclusion globs
packpolicy := data.mcpc.packpolicy

packpolicy := data.data.mcpc.packpolicy if not data.mcpc.packpolicy

# METADATA
# description: known automation recipes
recipes := data.mcpc.recipes

recipes := data.data.mcpc.recipes if not data.mcpc.recipes

# METADATA
# description: strategy decision table and context signature signals
strategies := data.mcpc.strategies

strategies := data.data.mcpc.strategies if not data.mcpc.strategies
