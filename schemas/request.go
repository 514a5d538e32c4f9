package schemas

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// RequestChecker validates TurnRequests against turn-request.schema.json,
// split the way the file is written: the envelope (everything but the
// per-verb allOf branches) plus the one branch whose `if` names the
// request's verb. Validating the whole file evaluates every branch's `if`,
// and each failing `if` builds an error tree; on a read turn that was most
// of the cost. The verdict is the same: a branch whose `if` does not match
// imposes nothing.
type RequestChecker struct {
	envelope *jsonschema.Schema
	verbs    map[string]*jsonschema.Schema
}

// NewRequestChecker compiles the envelope and the per-verb branches of the
// published request schema.
func NewRequestChecker() (*RequestChecker, error) {
	var root map[string]any
	if err := json.Unmarshal(TurnRequest, &root); err != nil {
		return nil, err
	}
	branches, _ := root["allOf"].([]any)
	delete(root, "allOf")
	root["$id"] = base + "turn-request.envelope.json"
	envelope, err := json.Marshal(root)
	if err != nil {
		return nil, err
	}
	c, err := newCompiler(map[string][]byte{"turn-request.envelope.json": envelope})
	if err != nil {
		return nil, err
	}
	rc := &RequestChecker{verbs: map[string]*jsonschema.Schema{}}
	if rc.envelope, err = c.Compile(base + "turn-request.envelope.json"); err != nil {
		return nil, err
	}
	for i, b := range branches {
		verb := branchVerb(b)
		if verb == "" {
			return nil, fmt.Errorf("turn-request.schema.json allOf[%d]: not an if/then on the verb", i)
		}
		if rc.verbs[verb], err = c.Compile(base + "turn-request.schema.json#/allOf/" + strconv.Itoa(i) + "/then"); err != nil {
			return nil, err
		}
	}
	return rc, nil
}

// branchVerb is the verb an allOf branch's `if` matches ({"if":
// {"properties": {"verb": {"const": V}}}, "then": ...}), or "".
func branchVerb(b any) string {
	m, _ := b.(map[string]any)
	cond, _ := m["if"].(map[string]any)
	props, _ := cond["properties"].(map[string]any)
	verb, _ := props["verb"].(map[string]any)
	v, _ := verb["const"].(string)
	if _, ok := m["then"]; !ok || len(cond) != 1 || len(props) != 1 || len(verb) != 1 {
		return ""
	}
	return v
}

// Check validates a decoded request; nil means valid.
func (rc *RequestChecker) Check(doc any) []Problem {
	probs := Check(rc.envelope, doc)
	m, _ := doc.(map[string]any)
	verb, _ := m["verb"].(string)
	if s := rc.verbs[verb]; s != nil {
		probs = append(probs, Check(s, doc)...)
	}
	return probs
}
