package protocol

import "context"

type sessionKey struct{}

// WithSession names the MCP session a turn arrives on. The transport sets
// it from what the server, not the agent, controls (the streamable HTTP
// session id); budgets are kept per session, so nothing an agent writes in
// a request (runSessionId, workId, agentId) chooses which one it charges.
func WithSession(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, sessionKey{}, id)
}

// SessionOf is the session WithSession named, or "" (stdio: the process is
// the session).
func SessionOf(ctx context.Context) string {
	id, _ := ctx.Value(sessionKey{}).(string)
	return id
}
