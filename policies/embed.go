// Package policies embeds mcpc's default Rego policies and data so the binary
// decides with no bundle on disk. Policy authors edit rego/ and data/ and run
// `go tool opa test policies/`; the files here are what `mcpc serve` loads
// unless --bundle names another bundle.
package policies

import "embed"

// FS holds rego/**/*.rego (tests included; the engine skips *_test.rego) and
// data/**/*.json.
//
//go:embed rego data
var FS embed.FS
