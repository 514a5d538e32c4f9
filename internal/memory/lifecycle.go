package memory

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mcpc/mcpc/internal/pathscope"
)

// Transition is a state change lib/memory decided on the clock.
type Transition struct {
	ID     string `json:"id"`
	From   string `json:"from"`
	To     string `json:"to"`
	Reason string `json:"reason"`
}

// ErrNotFound is returned for an id records.json does not hold.
var ErrNotFound = errors.New("no such memory record")

// reviewable are the states a person may approve or reject from. A
// rejected record stays rejected; an expired one is learned again as a new
// candidate rather than revived.
var reviewable = map[string][]string{
	"approved": {"pending", "provisional"},
	"rejected": {"pending", "provisional", "approved"},
}

// Review records a person's decision on one record: approve or reject it,
// with who and why in the record and in the changelog.
func Review(res *pathscope.Resolver, id, to, by, reason string, now time.Time) (Change, error) {
	from, ok := reviewable[to]
	if !ok {
		return Change{}, fmt.Errorf("a person sets a record approved or rejected, not %q", to)
	}
	stamp := now.UTC().Format(time.RFC3339)
	var change Change
	err := Update(res, func(records []Record) ([]Record, bool, error) {
		i := slices.IndexFunc(records, func(r Record) bool { return str(r, "id") == id })
		if i < 0 {
			return nil, false, fmt.Errorf("%w: %s", ErrNotFound, id)
		}
		r := records[i]
		state := str(r, "state")
		if state == to {
			return nil, false, fmt.Errorf("%s is already %s", id, to)
		}
		if !slices.Contains(from, state) {
			return nil, false, fmt.Errorf("%s is %s: only a record that is %v can become %s", id, state, from, to)
		}
		r["state"], r["updatedAt"], r["reviewedBy"] = to, stamp, by
		if reason != "" {
			r["reason"] = reason
		} else {
			delete(r, "reason")
		}
		change = Change{At: stamp, ID: id, From: state, To: to, By: by, Reason: reason}
		return records, true, nil
	})
	if err != nil {
		return Change{}, err
	}
	return change, AppendChanges(res, []Change{change})
}

// Decide is lib/memory's lifecycle over a list of records.
type Decide func(records []Record) ([]Transition, error)

// ExpireCheck applies the transitions policy decides on the clock (pending
// to provisional, provisional to expired or, for auto-promotable types,
// approved) under the records lock, and logs each one as by's.
func ExpireCheck(res *pathscope.Resolver, decide Decide, by string, now time.Time) ([]Change, error) {
	stamp := now.UTC().Format(time.RFC3339)
	changes := []Change{}
	err := Update(res, func(records []Record) ([]Record, bool, error) {
		ts, err := decide(records)
		if err != nil {
			return nil, false, err
		}
		for _, t := range ts {
			i := slices.IndexFunc(records, func(r Record) bool { return str(r, "id") == t.ID })
			if i < 0 || str(records[i], "state") != t.From {
				continue
			}
			records[i]["state"], records[i]["updatedAt"], records[i]["reviewedBy"], records[i]["reason"] = t.To, stamp, by, t.Reason
			changes = append(changes, Change{At: stamp, ID: t.ID, From: t.From, To: t.To, By: by, Reason: t.Reason})
		}
		return records, len(changes) > 0, nil
	})
	if err != nil {
		return nil, err
	}
	return changes, AppendChanges(res, changes)
}
