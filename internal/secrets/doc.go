// Package secrets finds secrets in file content.
//
// It wraps gitleaks' detect package (the pinned module in go.mod) with its
// maintained default rule set plus mcpc's own rules (rules.toml, embedded),
// for the forms the defaults miss. A Finding names the rule that matched
// and the lines, never the secret: findings become policy facts and may be
// recorded, so they must not carry what they found. A Cache keeps findings
// between processes by the content's hash, under the rule set's identity,
// so a new process does not scan again what an earlier one scanned.
//
// Secrets by file name (.env, .npmrc, *.tfvars ...) are not this package's
// business: that list lives in policies/data/pack.json and Rego matches it.
package secrets
