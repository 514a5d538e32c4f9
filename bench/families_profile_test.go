//go:build unix

package bench

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/open-policy-agent/opa/v1/profiler"
)

// BenchmarkFamiliesProfile prints where the families decision spends its
// time, by policy file and by expression, measured by OPA's profiler while
// the engine's caches are in play (Engine.EvalTraced): `opa eval --profile`
// over a dumped input evaluates every memoized view afresh and overstates
// it. The profiler's own overhead inflates every figure about twofold, so
// they rank, they do not time. Opt-in, because it prints:
// MCPC_BENCH_PROFILE=1 go test -run '^$' -bench FamiliesProfile -benchtime 1x ./bench/
func BenchmarkFamiliesProfile(b *testing.B) {
	if os.Getenv("MCPC_BENCH_PROFILE") == "" {
		b.Skip("set MCPC_BENCH_PROFILE=1 to print the profile")
	}
	const rounds = 16
	for _, n := range []int{10, 200} {
		eng, ins := familiesInput(b, n)
		for _, in := range ins { // the engine's memo as a turn finds it
			if _, err := eng.Eval(context.Background(), in, nil); err != nil {
				b.Fatal(err)
			}
		}
		p := profiler.New()
		for i := range rounds {
			if _, err := eng.EvalTraced(context.Background(), ins[i%len(ins)], nil, p); err != nil {
				b.Fatal(err)
			}
		}
		stats := p.ReportTopNResults(-1, []string{"total_time_ns"})
		perRound := func(ns int64) float64 { return float64(ns) / rounds / 1e3 }
		byFile := map[string]int64{}
		var total int64
		for _, s := range stats {
			byFile[s.Location.File] += s.ExprTimeNs
			total += s.ExprTimeNs
		}
		files := slices.Collect(maps.Keys(byFile))
		slices.SortFunc(files, func(x, y string) int { return cmp.Compare(byFile[y], byFile[x]) })
		fmt.Printf("nodes=%d: %.0f us a decision under the profiler\n", n, perRound(total))
		for _, f := range files[:min(12, len(files))] {
			fmt.Printf("  %7.0f us  %s\n", perRound(byFile[f]), f)
		}
		for _, s := range stats[:min(20, len(stats))] {
			fmt.Printf("  %7.0f us  %4d evals  %s:%d\n", perRound(s.ExprTimeNs), s.NumEval/rounds, s.Location.File, s.Location.Row)
		}
	}
}
