package memory

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"time"

	"github.com/mcpc/mcpc/internal/anchor"
	"github.com/mcpc/mcpc/internal/pathscope"
)

// SessionStats is what the controller counted of one work's turns.
type SessionStats struct {
	Turns      int            `json:"turns"`
	Rejections int            `json:"rejections"`
	Verbs      map[string]int `json:"verbs"`
	// Reads counts the files read or traced, for retrieval hotspots.
	Reads map[string]int `json:"-"`
}

// Retrospective is signal_task_complete's look back (seed 002
// "signal_task_complete: Session Retrospective").
type Retrospective struct {
	Friction    FrictionDigest `json:"friction"`
	Memory      MemoryStatus   `json:"memory"`
	Session     SessionStats   `json:"session"`
	Suggestions []Suggestion   `json:"suggestions"`
	// Recorded are the retrospective candidates written to records.json.
	Recorded []string `json:"recorded"`
}

// FrictionDigest summarises the work's denials.
type FrictionDigest struct {
	Heatmap       map[string]int  `json:"heatmap"` // rejection code → denials
	TopSignatures []SignatureSeen `json:"topSignatures"`
	Hotspots      []Hotspot       `json:"retrievalHotspots"`
	// Trend compares the work's denials per turn in its first and second
	// half: "rising", "falling" or "flat".
	Trend string `json:"trend"`
	// Dropped counts denials the ledger is missing because the learner's
	// queue was full (every server of the workspace, as the ledger keeps
	// them, and this server's not yet written): the digest undercounts by
	// this much.
	Dropped int64 `json:"droppedEntries"`
}

// SignatureSeen is a signature and its denials in this work.
type SignatureSeen struct {
	Signature
	Count int `json:"count"`
}

// Hotspot is a domain anchor and how often the work read or traced in it.
type Hotspot struct {
	Anchor string `json:"anchor"`
	Reads  int    `json:"reads"`
}

// MemoryStatus counts records by state and lists those a person should
// look at.
type MemoryStatus struct {
	Pending     int      `json:"pending"`
	Provisional int      `json:"provisional"`
	Approved    int      `json:"approved"`
	NeedsReview []string `json:"needsReview"`
}

// Suggestion is a memory the retrospective proposes.
type Suggestion struct {
	Kind      string    `json:"kind"` // "plan_rule" or "few_shot"
	Signature Signature `json:"signature"`
	Count     int       `json:"count"`
	Reason    string    `json:"reason"`
}

// maxListed bounds each list of a retrospective.
const maxListed = 10

// RetroInput is what a retrospective is built from besides the files.
type RetroInput struct {
	Work      string
	Stats     SessionStats
	Anchors   anchor.Rules
	Threshold int
	Now       time.Time
	// Unrecorded are this server's dropped denials no ledger line holds
	// yet (Learner.Unrecorded).
	Unrecorded int64
}

// Retrospect builds the retrospective of a work from the ledger, the
// records and the controller's counts, and records a pending
// retrospective candidate per plan_rule suggestion (one per code).
func Retrospect(res *pathscope.Resolver, in RetroInput) (Retrospective, error) {
	work, stats, threshold, now := in.Work, in.Stats, in.Threshold, in.Now
	r := Retrospective{Session: stats, Suggestions: []Suggestion{}, Recorded: []string{}}
	r.Friction = digest(ReadLedger(res), work, stats, in.Anchors)
	r.Friction.Dropped += in.Unrecorded
	records, err := Load(res)
	if err != nil {
		return r, err
	}
	r.Memory = status(records)
	for _, s := range r.Friction.TopSignatures {
		if s.Count >= threshold {
			r.Suggestions = append(r.Suggestions, Suggestion{Kind: "few_shot", Signature: s.Signature, Count: s.Count,
				Reason: fmt.Sprintf("%s was denied %d times in %q: a worked example would save the next agent the retries", s.Code, s.Count, s.Anchor)})
		}
	}
	for code, n := range r.Friction.Heatmap {
		if n >= 2*threshold {
			r.Suggestions = append(r.Suggestions, Suggestion{Kind: "plan_rule", Signature: Signature{Code: code}, Count: n,
				Reason: fmt.Sprintf("%s was denied %d times in this work: a plan_rule would make plans meet it up front", code, n)})
		}
	}
	slices.SortFunc(r.Suggestions, func(a, b Suggestion) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Signature.Key(), b.Signature.Key()))
	})
	r.Recorded, err = recordSuggestions(res, work, r.Suggestions, now)
	return r, err
}

func digest(ledger []LedgerEntry, work string, stats SessionStats, anchors anchor.Rules) FrictionDigest {
	d := FrictionDigest{Heatmap: map[string]int{}, TopSignatures: []SignatureSeen{}, Hotspots: []Hotspot{}, Trend: "flat"}
	seen := map[Signature]int{}
	var mine []LedgerEntry
	for _, e := range ledger {
		d.Dropped += e.Dropped
		if e.Work != work {
			continue
		}
		mine = append(mine, e)
		for _, c := range e.Codes {
			d.Heatmap[c]++
		}
		for _, s := range signaturesOf(e.Codes, e.DomainAnchors, e.Strategy) {
			seen[s]++
		}
	}
	for s, n := range seen {
		d.TopSignatures = append(d.TopSignatures, SignatureSeen{Signature: s, Count: n})
	}
	slices.SortFunc(d.TopSignatures, func(a, b SignatureSeen) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Key(), b.Key()))
	})
	d.TopSignatures = d.TopSignatures[:min(len(d.TopSignatures), maxListed)]
	byAnchor := map[string]int{}
	for f, n := range stats.Reads {
		byAnchor[anchors.Of(f)] += n
	}
	for a, n := range byAnchor {
		d.Hotspots = append(d.Hotspots, Hotspot{Anchor: a, Reads: n})
	}
	slices.SortFunc(d.Hotspots, func(a, b Hotspot) int { return cmp.Or(cmp.Compare(b.Reads, a.Reads), cmp.Compare(a.Anchor, b.Anchor)) })
	d.Hotspots = d.Hotspots[:min(len(d.Hotspots), maxListed)]
	// Trend: denials by turn sequence, first half against second half.
	if stats.Turns >= 4 {
		half := stats.Turns / 2
		first, second := 0, 0
		for _, e := range mine {
			if e.Seq <= half {
				first++
			} else {
				second++
			}
		}
		switch {
		case second > first:
			d.Trend = "rising"
		case second < first:
			d.Trend = "falling"
		}
	}
	return d
}

func status(records []Record) MemoryStatus {
	s := MemoryStatus{NeedsReview: []string{}}
	for _, r := range records {
		switch str(r, "state") {
		case "pending":
			s.Pending++
			s.NeedsReview = append(s.NeedsReview, str(r, "id"))
		case "provisional":
			s.Provisional++
			if str(r, "enforcementType") == "plan_rule" || str(r, "enforcementType") == "few_shot" {
				s.NeedsReview = append(s.NeedsReview, str(r, "id"))
			}
		case "approved":
			s.Approved++
		}
	}
	slices.Sort(s.NeedsReview)
	s.NeedsReview = s.NeedsReview[:min(len(s.NeedsReview), 50)]
	return s
}

// recordSuggestions writes one pending informational record per plan_rule
// suggestion (a person turns it into a rule), once per code.
func recordSuggestions(res *pathscope.Resolver, work string, sugs []Suggestion, now time.Time) ([]string, error) {
	recorded := []string{}
	var todo []Suggestion
	for _, s := range sugs {
		if s.Kind == "plan_rule" {
			todo = append(todo, s)
		}
	}
	if len(todo) == 0 {
		return recorded, nil
	}
	stamp := now.UTC().Format(time.RFC3339)
	err := Update(res, func(records []Record) ([]Record, bool, error) {
		for _, s := range todo {
			sum := sha256.Sum256([]byte("retro|" + s.Signature.Code))
			id := "retro-" + hex.EncodeToString(sum[:6])
			if slices.ContainsFunc(records, func(r Record) bool { return r["id"] == id }) {
				continue
			}
			records = append(records, Record{
				"id": id, "trigger": "retrospective", "phase": "retrospective", "enforcementType": "informational",
				"rejectionCodes": []any{s.Signature.Code}, "domainAnchorIds": []any{},
				"note": "plan_rule candidate: " + s.Reason, "state": "pending", "createdAt": stamp, "updatedAt": stamp,
				"traceRef": "retrospective:" + work, "occurrences": s.Count,
			})
			recorded = append(recorded, id)
		}
		return records, len(recorded) > 0, nil
	})
	return recorded, err
}
