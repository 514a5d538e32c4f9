package controller

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/store"
)

// workView is what turns derive from a work row: the decoded pack summary
// and strategy. A row's content is fixed by its revision, so the view is
// decoded once per revision instead of on every turn.
type workView struct {
	rev        int64
	pack       packSummary
	strategy   map[string]any
	strategyID string
	knowledge  protocol.KnowledgeStrategy
	splits     []string
}

// workViews caches one view per work. Views are shared read-only.
type workViews struct {
	mu    sync.Mutex
	views map[string]*workView
}

func (c *Controller) viewOf(w *store.Work) *workView {
	c.views.mu.Lock()
	v, ok := c.views.views[w.ID]
	c.views.mu.Unlock()
	if ok && v.rev == w.Rev && w.Rev != 0 {
		return v
	}
	v = &workView{rev: w.Rev}
	_ = json.Unmarshal(w.Pack, &v.pack)
	v.pack.Files = slices.Clip(v.pack.Files) // shared: an append must copy
	_ = json.Unmarshal(w.Strategy, &v.strategy)
	v.strategyID, _ = v.strategy["strategyId"].(string)
	v.knowledge = knowledgeStrategy(v.strategy)
	v.splits = stringList(v.strategy["suggestedSplits"])
	c.views.mu.Lock()
	if c.views.views == nil || len(c.views.views) >= workCacheViews {
		c.views.views = map[string]*workView{}
	}
	c.views.views[w.ID] = v
	c.views.mu.Unlock()
	return v
}

// workCacheViews bounds the cached views; a process serves a handful of works.
const workCacheViews = 64
