package dashboard

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/controller"
	"github.com/mcpc/mcpc/internal/observe"
	"github.com/mcpc/mcpc/internal/store"
)

// BenchmarkSSELatency measures a turn's way to an event-stream subscriber:
// from the controller handing the finished turn to the observer, through
// the batched store write, to the dashboard's poll and the SSE line
// (target: within 250 ms). Reported as p50 and p99.
func BenchmarkSSELatency(b *testing.B) {
	st, err := store.Open(filepath.Join(b.TempDir(), "mcpc.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	p, err := observe.New(observe.Options{Store: st, Workspace: b.TempDir(), Config: config.Observe{QueueSize: 100, DecisionLog: config.DecisionLog{Disabled: true}}})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	srv := httptest.NewServer(New(Options{Store: st}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/stream/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	got := make(chan struct{}, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "event: turn") {
				got <- struct{}{}
			}
		}
	}()
	var lat []time.Duration
	seq := 0
	for b.Loop() {
		seq++
		// Turns arrive at any moment of the dashboard's poll period, not
		// in step with it.
		b.StopTimer()
		time.Sleep(time.Duration(seq*37%100) * time.Millisecond)
		b.StartTimer()
		start := time.Now()
		p.ObserveTurn(&controller.TurnObservation{At: start, WorkID: "w", AgentID: "a", Verb: "read_file_lines", Seq: seq, Allowed: true, PolicyVersion: "v"})
		select {
		case <-got:
		case <-time.After(5 * time.Second):
			b.Fatal("no event within 5s")
		}
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
