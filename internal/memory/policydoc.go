package memory

import (
	"time"

	"github.com/mcpc/mcpc/internal/config"
)

// Lifecycle is input.memoryLifecycle: config's windows lib/memory decides
// a record's state with. The clock is input.enforcement.now, the one the
// decision's other windows read.
type Lifecycle struct {
	ContestWindowHours     int      `json:"contestWindowHours"`
	ProvisionalWindowHours int      `json:"provisionalWindowHours"`
	AutoPromotable         []string `json:"autoPromotable"`
}

// LifecycleOf is the windows of config memory.*.
func LifecycleOf(cfg config.Memory) Lifecycle {
	auto := cfg.AutoPromotable
	if auto == nil {
		auto = []string{}
	}
	return Lifecycle{ContestWindowHours: cfg.ContestWindowHours, ProvisionalWindowHours: cfg.ProvisionalWindowHours, AutoPromotable: auto}
}

// PolicyDoc is the input of lib/memory's queries outside a turn's decision
// (the memory lane, trace_symbol_graph's few-shots, expire-check): the
// records and the clock where the decision has them (input.enforcement)
// and the windows (input.memoryLifecycle), so each query decides on the
// same facts as the decision does.
type PolicyDoc struct {
	Enforcement     PolicyRecords `json:"enforcement"`
	MemoryLifecycle Lifecycle     `json:"memoryLifecycle"`
}

// PolicyRecords is the part of input.enforcement lib/memory reads.
type PolicyRecords struct {
	Now      string   `json:"now"`
	Memories []Record `json:"memories"`
}

// NewPolicyDoc bounds the records to MaxRecords and stamps the clock.
func NewPolicyDoc(records []Record, now time.Time, cfg config.Memory) PolicyDoc {
	if records == nil {
		records = []Record{}
	}
	return PolicyDoc{
		Enforcement:     PolicyRecords{Now: now.UTC().Format(time.RFC3339), Memories: records[:min(len(records), MaxRecords)]},
		MemoryLifecycle: LifecycleOf(cfg),
	}
}
