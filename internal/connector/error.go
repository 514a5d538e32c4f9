// Package connector is the one kernel mcpc's requirement connectors (Jira,
// OpenAPI) fetch through: per-request timeouts, retries with exponential
// backoff that honour Retry-After, a rate limit, a response cache under
// .ai/tmp/connectors with a validity (TTL, then ETag revalidation), trace
// lines with durations, and one normalized error type. It never logs,
// caches under, or reports a credential: requests carry the token in a
// header the trace does not print, and every error message is built by the
// kernel (never copied from a server's body).
package connector

import (
	"errors"
	"fmt"
	"strings"
)

// Error codes. They are facts for policy and the pack's insufficiency, so
// they are stable.
const (
	CodeNotConfigured = "not_configured" // no base URL or no token
	CodeUnauthorized  = "unauthorized"   // 401
	CodeForbidden     = "forbidden"      // 403
	CodeNotFound      = "not_found"      // 404 (or 410)
	CodeRateLimited   = "rate_limited"   // 429 past the retries, or a Retry-After beyond the time left
	CodeTimeout       = "timeout"        // a request or the connectors' time budget ran out
	CodeUnavailable   = "unavailable"    // 5xx past the retries, a refused connection
	CodeMalformed     = "malformed"      // an answer that is not what the connector expects
	CodeTooLarge      = "too_large"      // an answer over the size limit
)

// Error is the one error type of the connectors. Message never holds a
// credential or anything a server sent back.
type Error struct {
	Code    string // one of the Code constants
	Message string
	// Status is the HTTP status when there was one.
	Status int
	// RetryAfterSec is what the server asked for on a 429/503, when it did.
	RetryAfterSec int
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf makes an *Error.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// AsError normalizes any error to an *Error (a bare error is "unavailable").
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeUnavailable, Message: err.Error()}
}

// Redact replaces every occurrence of each secret in s: the last guard
// before a message leaves the kernel.
func Redact(s string, secrets ...string) string {
	for _, sec := range secrets {
		if len(sec) >= 4 {
			s = strings.ReplaceAll(s, sec, "[redacted]")
		}
	}
	return s
}
