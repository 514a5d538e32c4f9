package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkMemoryList10k is `mcpc memory list` over 10,000 records: read,
// decode and print them (text table and JSON), in process.
func BenchmarkMemoryList10k(b *testing.B) {
	ws := b.TempDir()
	records := make([]map[string]any, 10000)
	for i := range records {
		records[i] = map[string]any{
			"id": fmt.Sprintf("friction-%012x", i), "trigger": "rejection_pattern", "phase": "exploration",
			"enforcementType": "few_shot", "state": []string{"pending", "provisional", "approved", "rejected"}[i%4],
			"domainAnchorIds": []string{fmt.Sprintf("anchor:src/app/area%d", i%50)}, "rejectionCodes": []string{"PACK_SCOPE_VIOLATION"},
			"note": "5 PACK_SCOPE_VIOLATION denials of read_file_lines", "createdAt": "2026-11-25T00:00:00Z", "updatedAt": "2026-11-25T00:00:00Z",
			"fewShot": map[string]any{"instruction": "read only pack files", "antiPattern": "reading outside the pack", "whyWrong": "scope"},
		}
	}
	raw, _ := json.Marshal(records)
	if err := os.MkdirAll(filepath.Join(ws, ".ai", "memory"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".ai", "memory", "records.json"), raw, 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(raw)), "file-bytes")
	for _, format := range []string{"text", "json"} {
		b.Run(format, func(b *testing.B) {
			p := &memoryParams{rootParams: &rootParams{workspace: ws}, format: format}
			b.ReportAllocs()
			for b.Loop() {
				if err := p.list(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
