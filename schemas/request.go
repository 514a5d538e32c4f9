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
//
// A request validSchema proves valid is not given to the library at all
// (fastcheck.go); the fast schemas are nil where they cannot decide.
type RequestChecker struct {
	envelope *jsonschema.Schema
	verbs    map[string]*jsonschema.Schema
	// validEnvelope and validVerbs are the same schemas as validSchema.
	validEnvelope *validSchema
	validVerbs    map[string]*validSchema
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
	rc := &RequestChecker{verbs: map[string]*jsonschema.Schema{}, validVerbs: map[string]*validSchema{}}
	if v, ok := compileValid(root, root, 0); ok {
		rc.validEnvelope = v
	}
	root["$id"] = base + "turn-request.envelope.json"
	envelope, err := json.Marshal(root)
	if err != nil {
		return nil, err
	}
	c, err := newCompiler(map[string][]byte{"turn-request.envelope.json": envelope})
	if err != nil {
		return nil, err
	}
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
		if v, ok := compileValid(root, b.(map[string]any)["then"], 0); ok {
			rc.validVerbs[verb] = v
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
	m, _ := doc.(map[string]any)
	verb, _ := m["verb"].(string)
	if rc.provenValid(doc, verb) {
		return nil
	}
	probs := Check(rc.envelope, doc)
	if s := rc.verbs[verb]; s != nil {
		probs = mergeProblems(probs, Check(s, doc))
	}
	return probs
}

// mergeProblems appends more to probs, each fault once (keyed by path and
// message): one two schema branches both see, or the envelope and the
// verb's branch (args not an object). A later copy's Expected wins, the
// verb branch's being the more specific shape.
func mergeProblems(probs, more []Problem) []Problem {
	at := make(map[string]int, len(probs)+len(more))
	for i, p := range probs {
		at[p.Path+"\x00"+p.Message] = i
	}
	for _, p := range more {
		k := p.Path + "\x00" + p.Message
		if i, ok := at[k]; ok {
			if p.Expected != "" {
				probs[i].Expected = p.Expected
			}
			continue
		}
		at[k] = len(probs)
		probs = append(probs, p)
	}
	return probs
}

// provenValid says whether validSchema proves doc valid against the
// envelope and its verb's branch; false is "not proven", never a verdict.
func (rc *RequestChecker) provenValid(doc any, verb string) bool {
	if rc.validEnvelope == nil || !rc.validEnvelope.valid(doc) {
		return false
	}
	if rc.verbs[verb] == nil {
		return true // no branch for this verb: the envelope is all there is
	}
	v := rc.validVerbs[verb]
	return v != nil && v.valid(doc)
}
