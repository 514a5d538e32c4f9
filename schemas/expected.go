package schemas

import (
	"encoding/json"
	"sort"
	"strings"
	"sync"
)

// maxExpected bounds the schema fragment a problem quotes; a larger one is
// summarised to its type, required and property names.
const maxExpected = 320

// documents are the published files decoded once, by URL, for quoting.
var documents = sync.OnceValue(func() map[string]any {
	out := map[string]any{}
	for name, raw := range map[string][]byte{
		"turn-request.schema.json": TurnRequest, "turn-response.schema.json": TurnResponse,
		"plan-graph.schema.json": PlanGraph, "config.schema.json": Config,
	} {
		var doc any
		if json.Unmarshal(raw, &doc) == nil {
			out[base+name] = doc
		}
	}
	return out
})

// expectedAt is the schema a failed keyword belongs to, as compact JSON:
// what the value at the problem's path should have looked like. keyword is
// the error's absolute keyword location (URL#/json/pointer/keyword); "" when
// it does not name a published file.
func expectedAt(keyword string) string {
	if e, ok := expectedQuotes.Load(keyword); ok {
		return e.(string)
	}
	e := findExpected(keyword)
	expectedQuotes.Store(keyword, e)
	return e
}

// expectedQuotes memoises expectedAt: a keyword location names a place in
// the published schemas, so there are as many as the schemas have
// keywords, and a request of 100,000 malformed edits failed the same one
// 100,000 times (quoting it again each time was half of a 6 s turn).
var expectedQuotes sync.Map

func findExpected(keyword string) string {
	url, ptr, ok := strings.Cut(keyword, "#")
	if !ok {
		return ""
	}
	doc, ok := documents()[url]
	if !ok {
		return ""
	}
	segs := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	if len(segs) == 0 {
		return ""
	}
	cur := doc
	for _, seg := range segs[:len(segs)-1] { // the last segment is the failed keyword
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case map[string]any:
			cur = v[seg]
		case []any:
			i := 0
			for _, r := range seg {
				i = i*10 + int(r-'0')
			}
			if i >= len(v) {
				return ""
			}
			cur = v[i]
		default:
			return ""
		}
	}
	return quote(cur)
}

func quote(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	if len(raw) <= maxExpected {
		return string(raw)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return string(raw[:maxExpected]) + "…"
	}
	sum := map[string]any{}
	for _, k := range []string{"type", "required", "const", "enum"} {
		if x, ok := m[k]; ok {
			sum[k] = x
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		names := make([]string, 0, len(props))
		for k := range props {
			names = append(names, k)
		}
		sort.Strings(names)
		sum["properties"] = names
	}
	raw, _ = json.Marshal(sum)
	return string(raw)
}
