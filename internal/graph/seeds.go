package graph

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/mcpc/mcpc/schemas"
)

// SeedDir is where canonical seed rows live, relative to the workspace.
const SeedDir = ".ai/graph/seed"

// maxSeedFileBytes bounds one seed file; maxSeedLineBytes one row.
const (
	maxSeedFileBytes  = 16 << 20
	maxSeedLineBytes  = 1 << 20
	maxSeedTotalBytes = 64 << 20 // all seed files together
)

// seedSchema compiles the published seed schema once per process.
var seedSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	return schemas.Compile("graph-seed.schema.json")
})

// SeedRow is one validated seed row.
type SeedRow struct {
	File   string         // workspace-relative
	Line   int            // 1-based
	ID     string         // the row's id
	Type   string         // MigrationRule, UIIntent, ComponentIntent, MacroConstraint
	Fields map[string]any // the whole row
}

// Problem is one thing wrong with the workspace's graph sources, located
// as file:line.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	}
	return p.File + ": " + p.Message
}

// SourceError fails a sync: the sources it lists are invalid, and the graph
// was left as it was.
type SourceError struct {
	Problems []Problem
}

func (e *SourceError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "graph: %d invalid seed row(s), graph left unchanged", len(e.Problems))
	for i, p := range e.Problems {
		if i == maxReportedProblems {
			fmt.Fprintf(&b, "\n  ... and %d more", len(e.Problems)-i)
			break
		}
		b.WriteString("\n  " + p.String())
	}
	return b.String()
}

const maxReportedProblems = 20

// LoadSeeds reads and validates every .jsonl under root/SeedDir against
// schemas/graph-seed.schema.json. Any invalid row, unreadable file or
// duplicate id makes it return a *SourceError listing all of them, so one
// bad row fails the whole sync. Symlinks are not followed: the seeds are
// repository content.
func LoadSeeds(root string) ([]SeedRow, error) {
	sch, err := seedSchema()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, filepath.FromSlash(SeedDir))
	var files []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == dir {
				return filepath.SkipDir
			}
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("graph: seeds: %w", err)
	}
	sort.Strings(files)
	var rows []SeedRow
	var probs []Problem
	firstAt := map[string]string{}
	var total int64
	for _, abs := range files {
		if info, err := os.Lstat(abs); err == nil {
			if total += info.Size(); total > maxSeedTotalBytes {
				return nil, &SourceError{Problems: []Problem{{File: SeedDir, Message: fmt.Sprintf("seed files exceed %d bytes together", maxSeedTotalBytes)}}}
			}
		}
		rel, _ := filepath.Rel(root, abs)
		rel = filepath.ToSlash(rel)
		fileRows, fileProbs := readSeedFile(abs, rel, sch)
		probs = append(probs, fileProbs...)
		for _, r := range fileRows {
			at := fmt.Sprintf("%s:%d", r.File, r.Line)
			if prev, dup := firstAt[r.ID]; dup {
				probs = append(probs, Problem{File: r.File, Line: r.Line, Message: fmt.Sprintf("duplicate id %q (first at %s)", r.ID, prev)})
				continue
			}
			firstAt[r.ID] = at
			rows = append(rows, r)
		}
	}
	if len(probs) > 0 {
		return nil, &SourceError{Problems: probs}
	}
	return rows, nil
}

func readSeedFile(abs, rel string, sch *jsonschema.Schema) ([]SeedRow, []Problem) {
	info, err := os.Lstat(abs)
	if err != nil {
		return nil, []Problem{{File: rel, Message: err.Error()}}
	}
	if info.Size() > maxSeedFileBytes {
		return nil, []Problem{{File: rel, Message: fmt.Sprintf("%d bytes, more than the %d a seed file may have", info.Size(), maxSeedFileBytes)}}
	}
	raw, err := os.ReadFile(abs)
	if err != nil {
		return nil, []Problem{{File: rel, Message: err.Error()}}
	}
	var rows []SeedRow
	var probs []Problem
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 64<<10), maxSeedLineBytes)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var v any
		if err := json.Unmarshal(text, &v); err != nil {
			probs = append(probs, Problem{File: rel, Line: line, Message: "not JSON: " + err.Error()})
			continue
		}
		if bad := schemas.Check(sch, v); len(bad) > 0 {
			for _, b := range bad {
				msg := b.Message
				if b.Path != "" {
					msg = b.Path + ": " + msg
				}
				probs = append(probs, Problem{File: rel, Line: line, Message: msg})
			}
			continue
		}
		m := v.(map[string]any)
		rows = append(rows, SeedRow{File: rel, Line: line, ID: m["id"].(string), Type: m["type"].(string), Fields: m})
	}
	if err := sc.Err(); err != nil {
		probs = append(probs, Problem{File: rel, Line: line + 1, Message: err.Error()})
	}
	return rows, probs
}

// seedKey is what a seed node is looked up by.
func seedKey(r SeedRow) string {
	field := map[string]string{LabelMigrationRule: "fromTag", LabelUIIntent: "intent", LabelComponentIntent: "component", LabelMacroConstraint: "ifContains"}[r.Type]
	if s, ok := r.Fields[field].(string); ok {
		return s
	}
	return r.ID
}

// SeedNodeID is the node id of a seed row.
func SeedNodeID(typ, id string) string { return strings.ToLower(typ) + ":" + id }

// seedGroup turns one seed file's rows into a group; edges to components
// are added by the builder once it knows which components exist.
func seedFacts(rows []SeedRow) map[string]*Group {
	out := map[string]*Group{}
	for _, r := range rows {
		src := "seed:" + r.File
		g := out[src]
		if g == nil {
			g = &Group{Source: src}
			out[src] = g
		}
		id := SeedNodeID(r.Type, r.ID)
		props := map[string]any{}
		for k, v := range r.Fields {
			props[k] = v
		}
		props["file"], props["line"] = r.File, r.Line
		g.Nodes = append(g.Nodes, Node{ID: id, Label: r.Type, Key: seedKey(r), Source: src, Props: props})
		link := func(typ, tag string) {
			if tag != "" {
				g.Edges = append(g.Edges, Edge{From: id, Type: typ, To: ComponentID(tag), Source: src})
			}
		}
		switch r.Type {
		case LabelMigrationRule:
			link(EdgeMigrates, str(r.Fields["fromTag"]))
			link(EdgeMigratesTo, str(r.Fields["toTag"]))
		case LabelComponentIntent:
			link(EdgeConcerns, str(r.Fields["component"]))
		case LabelMacroConstraint:
			link(EdgeConcerns, str(r.Fields["ifContains"]))
		case LabelUIIntent:
			for _, t := range anyStrings(r.Fields["components"]) {
				link(EdgeConcerns, t)
			}
		}
	}
	return out
}

// ComponentID is the node id of the component with a tag.
func ComponentID(tag string) string { return "component:" + tag }

func str(v any) string { s, _ := v.(string); return s }

func anyStrings(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
