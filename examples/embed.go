// Package examples embeds the example workspaces that `mcpc demo` runs a
// scripted agent session against.
package examples

import "embed"

// FS holds angular-shop/, dot folders (.ai/config) included.
//
//go:embed all:angular-shop
var FS embed.FS
