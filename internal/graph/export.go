package graph

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// ExportDir is where exported deltas go by default, relative to the
// workspace.
const ExportDir = ".ai/graph/out"

// exportManifest records the group hashes of the last export, so the next
// one writes only what changed since.
const exportManifest = "manifest.json"

// ExportRow is one line of an exported delta: a node or edge to upsert (in
// the seed row shape: kind, labels, properties) or a source whose facts are
// all removed. A group's "remove" comes before its upserts, so applying a
// delta in order replaces the group.
type ExportRow struct {
	Kind       string         `json:"kind"` // node | edge | remove
	Source     string         `json:"source"`
	ID         string         `json:"id,omitempty"`
	Labels     []string       `json:"labels,omitempty"`
	Type       string         `json:"type,omitempty"`
	From       string         `json:"from,omitempty"`
	To         string         `json:"to,omitempty"`
	Key        string         `json:"key,omitempty"`
	Properties map[string]any `json:"properties,omitempty"`
}

// ExportSummary reports one export.
type ExportSummary struct {
	File    string `json:"file,omitempty"` // empty when nothing changed
	Groups  int    `json:"groups"`
	Removed int    `json:"removed"`
	Rows    int    `json:"rows"`
}

// Export writes the groups of facts that changed since the last export to
// dir as one JSONL delta file, and records the new hashes. The delta file
// is written completely before the manifest moves, so an interrupted
// export is redone by the next one.
func Export(facts *Facts, dir string, now time.Time) (*ExportSummary, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	prev := map[string]string{}
	raw, err := os.ReadFile(filepath.Join(dir, exportManifest))
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		if err := json.Unmarshal(raw, &prev); err != nil {
			return nil, fmt.Errorf("graph export: %s: %w", exportManifest, err)
		}
	}
	var rows []ExportRow
	sum := &ExportSummary{}
	next := map[string]string{}
	for _, src := range sortedSources(facts.Groups) {
		g := facts.Groups[src]
		next[src] = g.Hash
		if prev[src] == g.Hash {
			continue
		}
		sum.Groups++
		if _, had := prev[src]; had {
			rows = append(rows, ExportRow{Kind: "remove", Source: src})
		}
		for _, n := range g.Nodes {
			rows = append(rows, ExportRow{Kind: "node", Source: src, ID: n.ID, Labels: []string{n.Label}, Key: n.Key, Properties: n.Props})
		}
		for _, e := range g.Edges {
			rows = append(rows, ExportRow{Kind: "edge", Source: src, Type: e.Type, From: e.From, To: e.To, Properties: e.Props})
		}
	}
	var gone []string
	for src := range prev {
		if _, ok := next[src]; !ok {
			gone = append(gone, src)
		}
	}
	sort.Strings(gone)
	for _, src := range gone {
		rows = append(rows, ExportRow{Kind: "remove", Source: src})
		sum.Removed++
	}
	sum.Rows = len(rows)
	if len(rows) == 0 {
		return sum, nil
	}
	name := fmt.Sprintf("delta-%s.jsonl", now.UTC().Format("20060102T150405.000000000Z"))
	if err := writeRows(filepath.Join(dir, name), rows); err != nil {
		return nil, err
	}
	sum.File = filepath.Join(dir, name)
	m, err := json.MarshalIndent(next, "", " ")
	if err != nil {
		return nil, err
	}
	tmp := filepath.Join(dir, exportManifest+".tmp")
	if err := os.WriteFile(tmp, m, 0o644); err != nil {
		return nil, err
	}
	return sum, os.Rename(tmp, filepath.Join(dir, exportManifest))
}

func writeRows(file string, rows []ExportRow) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
