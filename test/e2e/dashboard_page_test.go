package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
)

// chromiumBinary finds headless Chromium (Debian's chromium).
func chromiumBinary() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// artefactDir is where the page's screenshot is kept: $MCPC_TEST_ARTIFACTS
// or testdata/artifacts (ignored by git).
func artefactDir(t *testing.T) string {
	dir := os.Getenv("MCPC_TEST_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("testdata", "artifacts")
	}
	must(t, os.MkdirAll(dir, 0o755))
	return dir
}

// runChromium loads url headless for a few seconds and returns its
// output (the DOM with --dump-dom).
func runChromium(t *testing.T, bin, url string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
		"--user-data-dir=" + t.TempDir(), "--timeout=5000", "--window-size=1400,1100"}
	cmd := exec.CommandContext(ctx, bin, append(append(base, args...), url)...)
	// --timeout, not --virtual-time-budget: virtual time never advances
	// while the page holds its event stream open.
	var out, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	return out.String()
}

// TestDashboardPageInChromium loads the page in headless Chromium while a
// work runs: the work, its decision timeline and a denial's explanation
// render, and the heatmap is drawn; a screenshot is kept as an artefact.
func TestDashboardPageInChromium(t *testing.T) {
	bin := chromiumBinary()
	if bin == "" {
		t.Skip("chromium is not installed (Debian package chromium): the page is not tested")
	}
	ws := newWorkspace(t)
	a := startServer(t, ws)
	a.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard")
	d := startDashboard(t, ws)
	denied := a.turn("read_file_lines", map[string]any{"targetFile": "../outside/" + demo.Target})
	if len(denied.Denials) == 0 {
		t.Fatal("the read outside the workspace was allowed")
	}
	code := denied.Denials[0].Code
	// The events reach the store off the turn's path: wait for them.
	var errs struct {
		Errors []any `json:"errors"`
	}
	for deadline := time.Now().Add(10 * time.Second); len(errs.Errors) == 0 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		d.get("/errors", &errs)
	}
	var run struct {
		Decisions []struct {
			Explanation struct {
				Denials []struct{ Title string } `json:"denials"`
			} `json:"explanation"`
		} `json:"decisions"`
	}
	d.get("/runs/"+a.work, &run)
	title := run.Decisions[len(run.Decisions)-1].Explanation.Denials[0].Title

	url := d.base + "/#work=" + a.work
	dom := runChromium(t, bin, url, "--dump-dom")
	for _, want := range []string{a.work, `class="decision denied"`, code, title, `class="cell"`, `class="denied-dot"`} {
		if !strings.Contains(dom, want) {
			t.Errorf("the rendered page lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("DOM:\n%s", dom)
	}
	shot := filepath.Join(artefactDir(t), "dashboard.png")
	abs, _ := filepath.Abs(shot)
	runChromium(t, bin, url, "--screenshot="+abs)
	if st, err := os.Stat(abs); err != nil || st.Size() == 0 {
		t.Errorf("no screenshot at %s: %v", abs, err)
	} else {
		t.Logf("screenshot: %s", abs)
	}
}

// TestDashboardPageUpdatesLive opens the page in headless Chromium (driven
// over the DevTools protocol), then runs turns: the page shows the new
// denial and its explanation from the event stream, without a reload.
func TestDashboardPageUpdatesLive(t *testing.T) {
	bin := chromiumBinary()
	if bin == "" {
		t.Skip("chromium is not installed (Debian package chromium): the page is not tested")
	}
	ws := newWorkspace(t)
	a := startServer(t, ws)
	a.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard")
	d := startDashboard(t, ws)
	c := startCDP(t, bin)
	c.navigate(d.base + "/#work=" + a.work)
	c.waitFor(`document.querySelectorAll("#timeline .decision").length === 1 && document.getElementById("live").textContent.startsWith("live")`, 20*time.Second)
	// A mark a reload would lose.
	c.eval(`window.mcpcMark = "loaded-once"; true`)

	denied := a.turn("read_file_lines", map[string]any{"targetFile": "../outside/" + demo.Target})
	if len(denied.Denials) == 0 {
		t.Fatal("the read outside the workspace was allowed")
	}
	code := denied.Denials[0].Code
	start := time.Now()
	c.waitFor(`document.querySelectorAll("#timeline .decision.denied").length === 1 && document.querySelector("#timeline .decision.denied .explanation").textContent.includes("`+code+`")`, 10*time.Second)
	t.Logf("the page showed the denial %v after its turn answered", time.Since(start))
	c.waitFor(`document.querySelectorAll("#heatmap rect.cell").length > 0 && document.querySelectorAll("#latency circle.denied-dot").length === 1`, 10*time.Second)
	if mark, _ := c.eval(`window.mcpcMark`).(string); mark != "loaded-once" {
		t.Errorf("the page reloaded (mark %q)", mark)
	}
	if rows, _ := c.eval(`document.querySelector("#works tbody tr.sel td:nth-child(5)").textContent`).(string); rows != "1" {
		t.Errorf("the works table shows %q denials for the work, want 1", rows)
	}
	png := c.screenshot()
	shot := filepath.Join(artefactDir(t), "dashboard-live.png")
	must(t, os.WriteFile(shot, png, 0o644))
	if len(png) < 1000 {
		t.Errorf("screenshot of %d bytes", len(png))
	}
	t.Logf("screenshot: %s", shot)
}
