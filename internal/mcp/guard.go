package mcp

import "net/http"

// Guard wraps next in the checks serve --http applies before MCP sees a
// request (Host, Origin, bearer token; see HTTPHandler), so other HTTP
// endpoints of mcpc (the dashboard) are held to the same rules.
func Guard(opts HTTPOptions, next http.Handler) http.Handler { return newGuard(opts, next) }
