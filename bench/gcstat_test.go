package bench

import (
	"runtime/metrics"
	"testing"
)

// gcStats reads the collector's counters around a measured loop:
// gc-cpu-ns/op is the runtime's estimate of the collector's CPU per turn
// (mark assists, dedicated and idle mark workers, pauses), gcs the cycles
// the loop ran, live-MB and scan-MB the live heap and the part of it the
// collector must scan (pointer-free memory is not scanned) after the last
// cycle.
type gcStats struct{ s []metrics.Sample }

func newGCStats() *gcStats {
	g := &gcStats{s: []metrics.Sample{
		{Name: "/cpu/classes/gc/total:cpu-seconds"},
		{Name: "/gc/cycles/total:gc-cycles"},
		{Name: "/gc/scan/heap:bytes"},
		{Name: "/gc/heap/live:bytes"},
	}}
	metrics.Read(g.s)
	return g
}

func (g *gcStats) report(b *testing.B) {
	cpu0, cyc0 := g.s[0].Value.Float64(), g.s[1].Value.Uint64()
	metrics.Read(g.s)
	b.ReportMetric((g.s[0].Value.Float64()-cpu0)*1e9/float64(b.N), "gc-cpu-ns/op")
	b.ReportMetric(float64(g.s[1].Value.Uint64()-cyc0), "gcs")
	b.ReportMetric(float64(g.s[2].Value.Uint64())/(1<<20), "scan-MB")
	b.ReportMetric(float64(g.s[3].Value.Uint64())/(1<<20), "live-MB")
}
