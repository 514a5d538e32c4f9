package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/mcpc/mcpc/internal/pathscope"
)

// openStates are the states of a candidate still being decided on or in
// force: a signature with one of these gets no second candidate.
var openStates = map[string]bool{"pending": true, "provisional": true, "approved": true}

// maxPendingFromFriction bounds the pending candidates friction opens: an
// agent denied in ever new folders would otherwise grow records.json
// without end (and push people's records past MaxRecords). Past it the
// ledger still records every denial; candidates wait for review.
const maxPendingFromFriction = 200

// SignatureID is the stable id of a signature's candidates.
func SignatureID(sig Signature) string {
	sum := sha256.Sum256([]byte(sig.Key()))
	return "friction-" + hex.EncodeToString(sum[:6])
}

// OpenCandidates creates a pending few_shot record for each signature
// that has none open, under the records lock. A signature a person
// rejected stays rejected: it gets no new candidate. One that expired may
// be learned again (a new id with a generation suffix).
func OpenCandidates(res *pathscope.Resolver, sigs []Signature, d Denial, counts map[string]int, now time.Time) error {
	return Update(res, func(records []Record) ([]Record, bool, error) {
		changed := false
		pending := 0
		for _, r := range records {
			if str(r, "trigger") == "rejection_pattern" && str(r, "state") == "pending" {
				pending++
			}
		}
		for _, sig := range sigs {
			if pending >= maxPendingFromFriction {
				break
			}
			base := SignatureID(sig)
			gen, open := 0, false
			for _, r := range records {
				id := str(r, "id")
				if id != base && !strings.HasPrefix(id, base+"-") {
					continue
				}
				gen++
				if openStates[str(r, "state")] || str(r, "state") == "rejected" {
					open = true
				}
			}
			if open {
				continue
			}
			id := base
			if gen > 0 {
				id = fmt.Sprintf("%s-%d", base, gen+1)
			}
			records = append(records, candidate(id, sig, d, counts[sig.Key()], now))
			changed = true
			pending++
		}
		return records, changed, nil
	})
}

// candidate is a pending record in seed 002's dimensional model with a
// scaffolded few-shot a person completes before approving.
func candidate(id string, sig Signature, d Denial, count int, now time.Time) Record {
	stamp := now.UTC().Format(time.RFC3339)
	anchors := []any{}
	if sig.Anchor != "" {
		anchors = append(anchors, "anchor:"+sig.Anchor)
	}
	phase := "exploration"
	switch d.Verb {
	case "submit_execution_plan":
		phase = "planning"
	case "apply_code_patch", "run_automation_recipe", "execute_gated_side_effect", "signal_task_complete", "run_sandboxed_code":
		phase = "execution"
	}
	where := "the workspace root"
	if sig.Anchor != "" {
		where = sig.Anchor
	}
	message := ""
	for i, c := range d.Codes {
		if c == sig.Code && i < len(d.Messages) {
			message = d.Messages[i]
		}
	}
	nodes := []any{}
	for _, n := range d.Nodes {
		if sig.Anchor == "" || strings.HasPrefix(n.TargetFile, sig.Anchor+"/") {
			nodes = append(nodes, map[string]any{"nodeId": n.ID, "kind": n.Kind, "targetFile": n.TargetFile, "editIntent": n.EditIntent})
		}
	}
	strategy := sig.Strategy
	if strategy == "" {
		strategy = "any strategy"
	}
	return Record{
		"id":               id,
		"trigger":          "rejection_pattern",
		"phase":            phase,
		"domainAnchorIds":  anchors,
		"enforcementType":  "few_shot",
		"rejectionCodes":   []any{sig.Code},
		"originStrategyId": sig.Strategy,
		"note": fmt.Sprintf("%d %s denials of %s in %s under %s; review the few-shot before approving.",
			count, sig.Code, d.Verb, where, strategy),
		"state":       "pending",
		"createdAt":   stamp,
		"updatedAt":   stamp,
		"traceRef":    fmt.Sprintf("friction:%s#%d", d.Work, d.Seq),
		"signature":   map[string]any{"code": sig.Code, "anchor": sig.Anchor, "strategy": sig.Strategy},
		"occurrences": count,
		"fewShot": map[string]any{
			"instruction": fmt.Sprintf("Before %s on files in %s, satisfy %s: %s", d.Verb, where, sig.Code, message),
			"antiPattern": fmt.Sprintf("%s was denied %d times with %s in %s.", d.Verb, count, sig.Code, where),
			"whyWrong":    message,
			"before":      "",
			"after":       "",
			"planNodes":   nodes,
			"scaffolded":  true,
		},
	}
}
