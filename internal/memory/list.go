package memory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mcpc/mcpc/internal/pathscope"
)

// Listed is what a listing shows of one record, decoded without the rest
// of it (the few-shot, the plan rule): `mcpc memory list` over thousands
// of records builds no map per record.
type Listed struct {
	ID              string
	State           string
	EnforcementType string
	Trigger         string
	UpdatedAt       string
	DomainAnchorIDs []string
	RejectionCodes  []string
}

// listedFields decodes the listed fields whatever their JSON type: a
// hand-edited record with a number where a string belongs still lists.
type listedFields struct {
	ID              any `json:"id"`
	State           any `json:"state"`
	EnforcementType any `json:"enforcementType"`
	Trigger         any `json:"trigger"`
	UpdatedAt       any `json:"updatedAt"`
	DomainAnchorIDs any `json:"domainAnchorIds"`
	RejectionCodes  any `json:"rejectionCodes"`
}

func (f listedFields) listed() Listed {
	s := func(v any) string { x, _ := v.(string); return x }
	return Listed{ID: s(f.ID), State: s(f.State), EnforcementType: s(f.EnforcementType), Trigger: s(f.Trigger),
		UpdatedAt: s(f.UpdatedAt), DomainAnchorIDs: strs(f.DomainAnchorIDs), RejectionCodes: strs(f.RejectionCodes)}
}

func strs(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// readRecords reads records.json raw; nil when absent.
func readRecords(res *pathscope.Resolver) ([]byte, error) {
	if !res.Resolve(RecordsFile).Exists {
		return nil, nil
	}
	return res.ReadFile(RecordsFile, maxRecordsBytes)
}

// decodeList decodes records.json (a list, or {"records": [...]}) into a
// list of T.
func decodeList[T any](raw []byte) ([]T, error) {
	var list []T
	if err := json.Unmarshal(raw, &list); err != nil {
		var wrapped struct {
			Records []T `json:"records"`
		}
		if err2 := json.Unmarshal(raw, &wrapped); err2 != nil {
			return nil, fmt.Errorf("%s: %w", RecordsFile, err)
		}
		list = wrapped.Records
	}
	return list, nil
}

// List reads records.json for a listing, in file order; state, when not
// empty, keeps only the records in it.
func List(res *pathscope.Resolver, state string) ([]Listed, error) {
	raw, err := readRecords(res)
	if err != nil || raw == nil {
		return []Listed{}, err
	}
	fields, err := decodeList[listedFields](raw)
	if err != nil {
		return nil, err
	}
	out := make([]Listed, 0, len(fields))
	for _, f := range fields {
		if l := f.listed(); state == "" || l.State == state {
			out = append(out, l)
		}
	}
	return out, nil
}

// WriteListJSON writes the records as stored (state, when not empty, keeps
// only the records in it) as an indented JSON array, without decoding
// what it does not filter on.
func WriteListJSON(w io.Writer, res *pathscope.Resolver, state string) error {
	raw, err := readRecords(res)
	if err != nil {
		return err
	}
	items := []json.RawMessage{}
	if raw != nil {
		if items, err = decodeList[json.RawMessage](raw); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	buf.WriteString("[")
	n := 0
	for _, it := range items {
		if state != "" {
			var s struct {
				State any `json:"state"`
			}
			if json.Unmarshal(it, &s) != nil || s.State != state {
				continue
			}
		}
		if n > 0 {
			buf.WriteString(",")
		}
		n++
		buf.WriteString("\n  ")
		if err := json.Indent(&buf, it, "  ", "  "); err != nil {
			return err
		}
		if buf.Len() > 1<<20 {
			if _, err := w.Write(buf.Bytes()); err != nil {
				return err
			}
			buf.Reset()
		}
	}
	if n > 0 {
		buf.WriteString("\n")
	}
	buf.WriteString("]\n")
	_, err = w.Write(buf.Bytes())
	return err
}
