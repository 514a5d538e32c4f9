// Package memory owns the workspace's memory records (seed 002 "Memory
// System"): .ai/memory/records.json and the human overrides people drop in
// .ai/memory/overrides/. It ingests overrides and reads records as facts;
// which records are active and what they require is decided by policy
// (mcpc.lib.enforcement), never here.
package memory

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/schemas"
)

// Workspace-relative locations (ARCHITECTURE section 5).
const (
	RecordsFile  = ".ai/memory/records.json"
	OverridesDir = ".ai/memory/overrides"
	// ProcessedSuffix is appended to an ingested override's name.
	ProcessedSuffix = ".processed"
)

// Bounds on what one ingestion reads: people drop a handful of files.
const (
	maxRecordsBytes  = 16 << 20
	maxOverrideBytes = 1 << 20
	maxOverrideFiles = 100
	// MaxRecords bounds the records handed to policy.
	MaxRecords = 2000
)

// Record is a memory record as stored: the whole JSON object, kept as is so
// fields this version does not know survive a rewrite.
type Record = map[string]any

// Problem is an override file that was not ingested, and why. The file is
// left where it is for a person to fix.
type Problem struct {
	File     string            `json:"file"`
	Problems []schemas.Problem `json:"problems"`
}

// Ingestion is what one ingestion did.
type Ingestion struct {
	Ingested []string  `json:"ingested"`
	Problems []Problem `json:"problems"`
}

// recordSchema compiles the memory-record schema on first use, not at
// start-up: every `mcpc hook` process imports this package and most never
// validate a record (the compile costs ~5 ms of each such process).
var recordSchema = sync.OnceValue(func() *jsonschema.Schema {
	s, err := schemas.Compile("memory-record.schema.json")
	if err != nil {
		panic("memory: the embedded memory-record schema does not compile: " + err.Error())
	}
	return s
})

// Validate checks one record against schemas/memory-record.schema.json.
func Validate(doc any) []schemas.Problem { return schemas.Check(recordSchema(), doc) }

// Load reads records.json (an array, or {"records": [...]}). An absent
// file is no records; a malformed one is an error the caller reports.
func Load(res *pathscope.Resolver) ([]Record, error) {
	if !res.Resolve(RecordsFile).Exists {
		return []Record{}, nil
	}
	raw, err := res.ReadFile(RecordsFile, maxRecordsBytes)
	if err != nil {
		return nil, err
	}
	var list []Record
	if err := json.Unmarshal(raw, &list); err != nil {
		var wrapped struct {
			Records []Record `json:"records"`
		}
		if err2 := json.Unmarshal(raw, &wrapped); err2 != nil {
			return nil, fmt.Errorf("%s: %w", RecordsFile, err)
		}
		list = wrapped.Records
	}
	if list == nil {
		list = []Record{}
	}
	return list, nil
}

// Ingest moves every valid override of .ai/memory/overrides/*.json into
// records.json (replacing a record with the same id) and renames it
// <name>.processed; an invalid file is reported and left in place. It runs
// before memories are queried (seed 000 section 15, gotcha 3). Overrides
// are people's decisions: they enter approved unless they carry a state.
func Ingest(res *pathscope.Resolver, now time.Time) (Ingestion, error) {
	out := Ingestion{Ingested: []string{}, Problems: []Problem{}}
	facts := res.Resolve(OverridesDir)
	if !facts.Exists {
		return out, nil
	}
	names, err := res.ReadDirNames(OverridesDir)
	if err != nil {
		return out, err
	}
	slices.Sort(names)
	var accepted []Record
	var files []string
	for _, name := range names {
		if !strings.HasSuffix(name, ".json") {
			continue // .processed files and notes
		}
		if len(files)+len(out.Problems) >= maxOverrideFiles {
			break
		}
		rel := path.Join(OverridesDir, name)
		rec, probs := readOverride(res, rel, now)
		if len(probs) > 0 {
			out.Problems = append(out.Problems, Problem{File: rel, Problems: probs})
			continue
		}
		accepted = append(accepted, rec)
		files = append(files, rel)
	}
	if len(accepted) == 0 {
		return out, nil
	}
	records, err := Load(res)
	if err != nil {
		return out, err
	}
	for _, rec := range accepted {
		records = slices.DeleteFunc(records, func(r Record) bool { return r["id"] == rec["id"] })
		records = append(records, rec)
	}
	raw, err := json.MarshalIndent(records, "", "  ")
	if err != nil {
		return out, err
	}
	if err := res.WriteFileAtomic(RecordsFile, append(raw, '\n'), true); err != nil {
		return out, err
	}
	// Renamed only once the records are written: a crash in between
	// ingests the file again, which replaces the record by id.
	for _, rel := range files {
		if err := res.Rename(rel, rel+ProcessedSuffix); err != nil {
			return out, err
		}
		out.Ingested = append(out.Ingested, rel)
	}
	return out, nil
}

// readOverride decodes and validates one override file and fills in what
// an override implies (its trigger, state and times).
func readOverride(res *pathscope.Resolver, rel string, now time.Time) (Record, []schemas.Problem) {
	raw, err := res.ReadFile(rel, maxOverrideBytes)
	if err != nil {
		return nil, []schemas.Problem{{Path: "", Message: err.Error()}}
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, []schemas.Problem{{Path: "", Message: "not JSON: " + err.Error()}}
	}
	if probs := Validate(doc); len(probs) > 0 {
		return nil, probs
	}
	rec := doc.(map[string]any)
	stamp := now.UTC().Format(time.RFC3339)
	for k, v := range map[string]any{"trigger": "human_override", "state": "approved", "createdAt": stamp, "updatedAt": stamp, "traceRef": "override:" + rel} {
		if _, ok := rec[k]; !ok {
			rec[k] = v
		}
	}
	return rec, nil
}
