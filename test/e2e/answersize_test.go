package e2e

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"sort"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/mcp"
	"github.com/mcpc/mcpc/internal/protocol"
)

// sizeRecorder is the demo's client, noting each answer's size per verb.
type sizeRecorder struct {
	c     *mcp.Client
	sizes map[string][]int
	last  *protocol.TurnResponse
	descs []bool // whether each answer carried verb descriptions
}

func (r *sizeRecorder) Turn(ctx context.Context, req any) (*protocol.TurnResponse, error) {
	resp, err := r.c.Turn(ctx, req)
	if err != nil {
		return nil, err
	}
	raw, _ := json.Marshal(resp)
	verb, _ := req.(map[string]any)["verb"].(string)
	r.sizes[verb] = append(r.sizes[verb], len(raw))
	r.descs = append(r.descs, len(resp.VerbDescriptions) > 0)
	r.last = resp
	return resp, nil
}

// TestDemoAnswerSizes runs the whole demo work and reports what each
// verb's answers weigh and what the work cost in tokens (go test -v; set
// MCPC_MEASURE_BINARY to measure another build). Quiet turns carry no verb
// descriptions.
func TestDemoAnswerSizes(t *testing.T) {
	bin := binary
	if b := os.Getenv("MCPC_MEASURE_BINARY"); b != "" {
		bin = b
	}
	ws := newWorkspace(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	c, err := mcp.Dial(ctx, exec.Command(bin, "serve", "--workspace", ws))
	must(t, err)
	defer c.Close()
	rec := &sizeRecorder{c: c, sizes: map[string][]int{}}
	if _, err := demo.Run(ctx, rec, io.Discard); err != nil {
		t.Fatalf("demo: %v", err)
	}
	demoBytes := 0
	for _, list := range rec.sizes {
		for _, n := range list {
			demoBytes += n
		}
	}
	t.Logf("demo work: %d answers, %d bytes (~%d tokens); its budget used %d tokens",
		len(rec.descs), demoBytes, (demoBytes+3)/4, rec.last.BudgetStatus.WorkUsedTokens)
	// An escalation in a second work: its answer is the grown file list.
	init, err := rec.Turn(ctx, map[string]any{"verb": "initialize_work", "originalPrompt": "Fix the stock warning on the dashboard", "args": map[string]any{"lexemes": []string{"dashboard"}}})
	must(t, err)
	esc, err := rec.Turn(ctx, map[string]any{"verb": "escalate", "workId": init.WorkID, "agentId": init.AgentID, "args": map[string]any{"need": "the orders grid service and its module"}})
	must(t, err)
	if len(esc.Denials) > 0 {
		t.Fatalf("escalate denied: %v", esc.DenyReasons)
	}
	verbs := make([]string, 0, len(rec.sizes))
	total := 0
	for v, list := range rec.sizes {
		verbs = append(verbs, v)
		for _, n := range list {
			total += n
		}
	}
	sort.Strings(verbs)
	for _, v := range verbs {
		t.Logf("%-26s answers (bytes) %v", v, rec.sizes[v])
	}
	t.Logf("total %d bytes (~%d tokens) over %d answers; budget used %d tokens (work %d)",
		total, (total+3)/4, len(rec.descs), rec.last.BudgetStatus.UsedTokens, rec.last.BudgetStatus.WorkUsedTokens)
	if os.Getenv("MCPC_MEASURE_BINARY") == "" {
		quiet := 0
		for _, d := range rec.descs {
			if !d {
				quiet++
			}
		}
		if quiet == 0 {
			t.Errorf("every answer carried verb descriptions")
		}
	}
}
