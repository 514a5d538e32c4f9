package dashboard

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/mcpc/mcpc/internal/store"
)

// latencyBuckets are the turn latency histogram's bounds, in seconds.
var latencyBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}

var (
	descTurns      = prometheus.NewDesc("mcpc_turns_total", "Turns recorded for works, by outcome (from the works' agents; never pruned).", []string{"outcome"}, nil)
	descTokens     = prometheus.NewDesc("mcpc_tokens_charged_total", "Tokens charged to works' agents.", nil, nil)
	descWorks      = prometheus.NewDesc("mcpc_works", "Works by state.", []string{"state"}, nil)
	descDenials    = prometheus.NewDesc("mcpc_recent_denials", "Denials by code among the newest 20,000 events.", []string{"code"}, nil)
	descLatency    = prometheus.NewDesc("mcpc_turn_duration_seconds", "Turn latency by verb among the newest 20,000 events.", []string{"verb"}, nil)
	descValidation = prometheus.NewDesc("mcpc_recent_validations", "Validation recipe runs among the newest 20,000 events, by outcome.", []string{"outcome"}, nil)
	descEvents     = prometheus.NewDesc("mcpc_events_stored", "Rows of the events table.", nil, nil)
	descIndex      = prometheus.NewDesc("mcpc_index_files", "Files in the code index.", nil, nil)
	descSymbols    = prometheus.NewDesc("mcpc_index_symbols", "Symbols in the code index.", nil, nil)
	descUp         = prometheus.NewDesc("mcpc_dashboard_store_up", "1 when the last scrape read the store.", nil, nil)
)

// recent bounds the event-derived metrics to the newest 20,000 rows
// (a primary-key range), so a scrape costs the same at any
// observe.maxEvents.
const recent = `id > (SELECT COALESCE(MAX(id), 0) FROM events) - 20000`

// collector reads the shared store at each scrape: the dashboard holds no
// counters of its own, every serve process feeds the store.
type collector struct{ st *store.Store }

func (c collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descTurns, descTokens, descWorks, descDenials, descLatency, descValidation, descEvents, descIndex, descSymbols, descUp} {
		ch <- d
	}
}

func (c collector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.collect(ctx, ch); err != nil {
		ch <- prometheus.MustNewConstMetric(descUp, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(descUp, prometheus.GaugeValue, 1)
}

func (c collector) collect(ctx context.Context, ch chan<- prometheus.Metric) error {
	db := c.st.DB()
	var turns, denials, tokens float64
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(SUM(turns),0), COALESCE(SUM(denials),0), COALESCE(SUM(used_tokens),0) FROM agents`).Scan(&turns, &denials, &tokens); err != nil {
		return err
	}
	ch <- prometheus.MustNewConstMetric(descTurns, prometheus.CounterValue, turns-denials, "allowed")
	ch <- prometheus.MustNewConstMetric(descTurns, prometheus.CounterValue, denials, "denied")
	ch <- prometheus.MustNewConstMetric(descTokens, prometheus.CounterValue, tokens)
	if err := grouped(ctx, db, `SELECT state, COUNT(*) FROM works GROUP BY state`, func(k string, n float64) {
		ch <- prometheus.MustNewConstMetric(descWorks, prometheus.GaugeValue, n, k)
	}); err != nil {
		return err
	}
	codes := map[string]float64{}
	if err := grouped(ctx, db, `SELECT codes, COUNT(*) FROM events WHERE `+recent+` AND kind = 'turn' AND denied = 1 GROUP BY codes`, func(k string, n float64) {
		for _, code := range strings.Fields(k) {
			codes[code] += n
		}
	}); err != nil {
		return err
	}
	for code, n := range codes {
		ch <- prometheus.MustNewConstMetric(descDenials, prometheus.GaugeValue, n, code)
	}
	if err := grouped(ctx, db, `SELECT CASE WHEN denied = 1 THEN 'denied' ELSE 'ran' END, COUNT(*) FROM events WHERE `+recent+` AND kind = 'turn' AND verb = 'run_automation_recipe' GROUP BY 1`, func(k string, n float64) {
		ch <- prometheus.MustNewConstMetric(descValidation, prometheus.GaugeValue, n, k)
	}); err != nil {
		return err
	}
	if err := c.latency(ctx, ch); err != nil {
		return err
	}
	var events float64
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM events`).Scan(&events); err != nil {
		return err
	}
	ch <- prometheus.MustNewConstMetric(descEvents, prometheus.GaugeValue, events)
	// The index tables exist once a serve process has opened the index.
	var files, symbols float64
	if db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM idx_files), (SELECT COUNT(*) FROM idx_symbols)`).Scan(&files, &symbols) == nil {
		ch <- prometheus.MustNewConstMetric(descIndex, prometheus.GaugeValue, files)
		ch <- prometheus.MustNewConstMetric(descSymbols, prometheus.GaugeValue, symbols)
	}
	return nil
}

// latency builds the histogram in SQL: one row per verb with the count
// under each bound.
func (c collector) latency(ctx context.Context, ch chan<- prometheus.Metric) error {
	var sel strings.Builder
	sel.WriteString(`SELECT verb, COUNT(*), COALESCE(SUM(duration_us),0)`)
	for _, b := range latencyBuckets {
		fmt.Fprintf(&sel, `, SUM(duration_us <= %d)`, int64(b*1e6))
	}
	sel.WriteString(` FROM events WHERE ` + recent + ` AND kind = 'turn' GROUP BY verb`)
	rows, err := c.st.DB().QueryContext(ctx, sel.String())
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var verb string
		var count uint64
		var sumUS int64
		under := make([]uint64, len(latencyBuckets))
		dest := []any{&verb, &count, &sumUS}
		for i := range under {
			dest = append(dest, &under[i])
		}
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		buckets := map[float64]uint64{}
		for i, b := range latencyBuckets {
			buckets[b] = under[i]
		}
		h, err := prometheus.NewConstHistogram(descLatency, count, float64(sumUS)/1e6, buckets, verb)
		if err != nil {
			return err
		}
		ch <- h
	}
	return rows.Err()
}

// grouped runs a (key, count) query and hands each row to fn.
func grouped(ctx context.Context, db *sql.DB, q string, fn func(string, float64)) error {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var n float64
		if err := rows.Scan(&k, &n); err != nil {
			return err
		}
		fn(k, n)
	}
	return rows.Err()
}
