package graph

import (
	"context"
	"path"
	"slices"
	"sort"
	"strings"
)

// InventoryEntry is one tag with every place it is used: the answer to
// "where is ADP still used", across the host app and its federated remotes.
type InventoryEntry struct {
	Tag       string           `json:"tag"`
	Declared  bool             `json:"declared"` // a components.d.ts declares it
	Migration *InventoryRule   `json:"migration,omitempty"`
	Count     int              `json:"count"`
	Anchors   []string         `json:"anchors"`
	Usages    []InventoryUsage `json:"usages"`
}

// InventoryRule is the migration rule of a tag.
type InventoryRule struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	ToTag  string `json:"toTag,omitempty"`
}

// InventoryUsage is one occurrence.
type InventoryUsage struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	EndLine int    `json:"endLine"`
	Anchor  string `json:"anchor"`
	App     string `json:"app,omitempty"` // "host", or the folder of the federated remote the file belongs to
	Attrs   string `json:"attrs,omitempty"`
}

// Inventory lists every tag starting with prefix and its usages, from the
// UsageExample facts: one query for the usages, one for the rules, one for
// the remotes.
func Inventory(ctx context.Context, s Store, prefix string) ([]InventoryEntry, error) {
	usages, err := s.Nodes(ctx, LabelUsage, prefix, 0)
	if err != nil {
		return nil, err
	}
	rules, err := s.Nodes(ctx, LabelMigrationRule, prefix, 0)
	if err != nil {
		return nil, err
	}
	comps, err := s.Nodes(ctx, LabelComponent, prefix, 0)
	if err != nil {
		return nil, err
	}
	remotes, err := remoteRoots(ctx, s)
	if err != nil {
		return nil, err
	}
	byTag := map[string]*InventoryEntry{}
	var order []string
	entry := func(tag string) *InventoryEntry {
		e := byTag[tag]
		if e == nil {
			e = &InventoryEntry{Tag: tag, Anchors: []string{}, Usages: []InventoryUsage{}}
			byTag[tag] = e
			order = append(order, tag)
		}
		return e
	}
	for _, c := range comps {
		e := entry(c.Key)
		e.Declared, _ = c.Props["declared"].(bool)
	}
	for _, r := range rules {
		e := entry(r.Key)
		if e.Migration == nil { // the first rule by id wins, as Nodes orders them
			e.Migration = &InventoryRule{ID: str(r.Props["id"]), Status: str(r.Props["status"]), ToTag: str(r.Props["toTag"])}
		}
	}
	for _, u := range usages {
		e := entry(u.Key)
		file := str(u.Props["file"])
		anchor := str(u.Props["anchor"])
		e.Usages = append(e.Usages, InventoryUsage{File: file, Line: intProp(u.Props["startLine"]), EndLine: intProp(u.Props["endLine"]),
			Anchor: anchor, App: appOf(file, remotes), Attrs: str(u.Props["attrs"])})
		if !slices.Contains(e.Anchors, anchor) {
			e.Anchors = append(e.Anchors, anchor)
		}
	}
	sort.Strings(order)
	out := make([]InventoryEntry, 0, len(order))
	for _, tag := range order {
		e := byTag[tag]
		if len(e.Usages) == 0 {
			continue // declared or ruled but never used: not in an inventory of usages
		}
		sort.Slice(e.Usages, func(i, j int) bool {
			if e.Usages[i].File != e.Usages[j].File {
				return e.Usages[i].File < e.Usages[j].File
			}
			return e.Usages[i].Line < e.Usages[j].Line
		})
		sort.Strings(e.Anchors)
		e.Count = len(e.Usages)
		out = append(out, *e)
	}
	return out, nil
}

// remoteRoots are the folders of federated remotes: where a config that
// exposes modules lives, below the workspace root.
func remoteRoots(ctx context.Context, s Store) ([]string, error) {
	exposes, err := s.Nodes(ctx, LabelSymbol, SymbolKey("federation_expose", ""), 0)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range exposes {
		if dir := path.Dir(str(e.Props["file"])); dir != "." && !slices.Contains(out, dir) {
			out = append(out, dir)
		}
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out, nil
}

func appOf(file string, remotes []string) string {
	for _, r := range remotes {
		if strings.HasPrefix(file, r+"/") {
			return r
		}
	}
	return "host"
}
