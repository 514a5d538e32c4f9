package engine

import (
	"fmt"
	"strings"
)

// Error is the one error type of the engine: what failed (Code), where
// (Location: a bundle path, a module) and the detail (Message).
type Error struct {
	Code     string `json:"code"`
	Location string `json:"location,omitempty"`
	Message  string `json:"message"`
}

func (e *Error) Error() string {
	if e.Location != "" {
		return fmt.Sprintf("policy %s at %s: %s", e.Code, e.Location, e.Message)
	}
	return fmt.Sprintf("policy %s: %s", e.Code, e.Message)
}

// Errors is every error of one failed compile, each with its location.
type Errors []*Error

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return fmt.Sprintf("%d policy errors: %s", len(es), strings.Join(msgs, "; "))
}
