package observe

import (
	"context"
	"encoding/json"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/mcpc/mcpc/internal/store"
)

// Anchors names the domain anchors of files: the first depth folders of
// each (src/app/orders/x.ts at depth 2 is src/app; a file at the root is
// "."), deduplicated and sorted.
func Anchors(files []string, depth int) []string {
	if depth <= 0 {
		depth = 2
	}
	seen := map[string]bool{}
	out := []string{}
	for _, f := range files {
		dir := path.Dir(strings.TrimPrefix(path.Clean("/"+f), "/"))
		a := "."
		if dir != "." && dir != "/" && dir != "" {
			parts := strings.Split(dir, "/")
			if len(parts) > depth {
				parts = parts[:depth]
			}
			a = strings.Join(parts, "/")
		}
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}

// Cell is one (code, anchor) count of the rejection heatmap.
type Cell struct {
	Code   string `json:"code"`
	Anchor string `json:"anchor"`
	Count  int    `json:"count"`
}

// Bucket is one hour of the rejection trend.
type Bucket struct {
	Hour     string  `json:"hour"` // 2026-11-25T01
	Turns    int     `json:"turns"`
	Denials  int     `json:"denials"`
	P50Ms    float64 `json:"p50Ms"`
	MaxMs    float64 `json:"maxMs"`
	TokenSum int     `json:"tokens"`
}

// Signature is a recurring rejection: code, anchor and strategy.
type Signature struct {
	Code     string `json:"code"`
	Anchor   string `json:"anchor"`
	Strategy string `json:"strategy"`
	Count    int    `json:"count"`
	LastWork string `json:"lastWorkId"`
}

// Hotspot is a file escalations keep adding to packs.
type Hotspot struct {
	File  string `json:"file"`
	Count int    `json:"count"`
}

// Correction is a denial its agent has not yet got past: no later allowed
// turn of the same verb by the same agent of the work.
type Correction struct {
	WorkID  string   `json:"workId"`
	AgentID string   `json:"agentId"`
	Verb    string   `json:"verb"`
	Seq     int      `json:"seq"`
	Codes   []string `json:"codes"`
	At      string   `json:"at"`
}

// Analytics are the rejection analytics over the newest events.
type Analytics struct {
	Events             int          `json:"events"`
	Heatmap            []Cell       `json:"heatmap"`
	Trend              []Bucket     `json:"trend"`
	TopSignatures      []Signature  `json:"topSignatures"`
	RetrievalHotspots  []Hotspot    `json:"retrievalHotspots"`
	PendingCorrections []Correction `json:"pendingCorrections"`
}

// analyticsWindow bounds the events analytics read: the newest ones.
const analyticsWindow = 20000

// Analyze computes the analytics over the newest turn and escalate events.
func Analyze(ctx context.Context, st *store.Store) (*Analytics, error) {
	turns, err := st.ListEvents(ctx, store.EventFilter{Kind: KindTurn, Limit: analyticsWindow, Newest: true})
	if err != nil {
		return nil, err
	}
	esc, err := st.ListEvents(ctx, store.EventFilter{Kind: KindEscalate, Limit: analyticsWindow, Newest: true})
	if err != nil {
		return nil, err
	}
	return analyze(turns, esc), nil
}

func analyze(turns, escalations []store.ObservedEvent) *Analytics {
	a := &Analytics{Events: len(turns), Heatmap: []Cell{}, Trend: []Bucket{}, TopSignatures: []Signature{},
		RetrievalHotspots: []Hotspot{}, PendingCorrections: []Correction{}}
	heat := map[[2]string]int{}
	sigs := map[[3]string]*Signature{}
	buckets := map[string]*Bucket{}
	durations := map[string][]float64{}
	type key struct{ work, agent, verb string }
	resolved := map[key]bool{}
	// Newest first: an allowed turn seen before (later than) a denial of
	// the same agent and verb resolves it.
	for _, e := range turns {
		hour := e.At
		if len(hour) >= 13 {
			hour = hour[:13]
		}
		b := buckets[hour]
		if b == nil {
			b = &Bucket{Hour: hour}
			buckets[hour] = b
		}
		b.Turns++
		b.TokenSum += e.Tokens
		ms := float64(e.DurationUS) / 1000
		durations[hour] = append(durations[hour], ms)
		k := key{e.WorkID, e.AgentID, e.Verb}
		if !e.Denied {
			resolved[k] = true
			continue
		}
		b.Denials++
		anchors := e.Anchors
		if len(anchors) == 0 {
			anchors = []string{"."}
		}
		for _, c := range e.Codes {
			for _, an := range anchors {
				heat[[2]string{c, an}]++
				sk := [3]string{c, an, e.Strategy}
				s := sigs[sk]
				if s == nil {
					s = &Signature{Code: c, Anchor: an, Strategy: e.Strategy, LastWork: e.WorkID}
					sigs[sk] = s
				}
				s.Count++
			}
		}
		if !resolved[k] && e.WorkID != "" {
			resolved[k] = true // one pending correction per agent and verb: the latest denial
			a.PendingCorrections = append(a.PendingCorrections, Correction{WorkID: e.WorkID, AgentID: e.AgentID, Verb: e.Verb, Seq: e.Seq, Codes: e.Codes, At: e.At})
		}
	}
	for k, n := range heat {
		a.Heatmap = append(a.Heatmap, Cell{Code: k[0], Anchor: k[1], Count: n})
	}
	sort.Slice(a.Heatmap, func(i, j int) bool {
		x, y := a.Heatmap[i], a.Heatmap[j]
		if x.Count != y.Count {
			return x.Count > y.Count
		}
		return x.Code+x.Anchor < y.Code+y.Anchor
	})
	for h, b := range buckets {
		d := durations[h]
		slices.Sort(d)
		b.P50Ms, b.MaxMs = d[len(d)/2], d[len(d)-1]
		a.Trend = append(a.Trend, *b)
	}
	sort.Slice(a.Trend, func(i, j int) bool { return a.Trend[i].Hour < a.Trend[j].Hour })
	for _, s := range sigs {
		a.TopSignatures = append(a.TopSignatures, *s)
	}
	sort.Slice(a.TopSignatures, func(i, j int) bool {
		x, y := a.TopSignatures[i], a.TopSignatures[j]
		if x.Count != y.Count {
			return x.Count > y.Count
		}
		return x.Code+x.Anchor+x.Strategy < y.Code+y.Anchor+y.Strategy
	})
	if len(a.TopSignatures) > 10 {
		a.TopSignatures = a.TopSignatures[:10]
	}
	hot := map[string]int{}
	for _, e := range escalations {
		var body struct {
			Added []string `json:"added"`
		}
		if json.Unmarshal(e.Body, &body) == nil {
			for _, f := range body.Added {
				hot[f]++
			}
		}
	}
	for f, n := range hot {
		a.RetrievalHotspots = append(a.RetrievalHotspots, Hotspot{File: f, Count: n})
	}
	sort.Slice(a.RetrievalHotspots, func(i, j int) bool {
		x, y := a.RetrievalHotspots[i], a.RetrievalHotspots[j]
		if x.Count != y.Count {
			return x.Count > y.Count
		}
		return x.File < y.File
	})
	if len(a.RetrievalHotspots) > 20 {
		a.RetrievalHotspots = a.RetrievalHotspots[:20]
	}
	return a
}
