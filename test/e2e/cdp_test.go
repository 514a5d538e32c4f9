package e2e

import (
	"bufio"
	"encoding/json"

	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// cdp drives headless Chromium over the DevTools protocol on a pipe
// (--remote-debugging-pipe: messages are JSON, each ended by a NUL byte,
// read by Chromium on fd 3 and written on fd 4). Only what the page test
// needs: navigate, evaluate, screenshot.
type cdp struct {
	t       *testing.T
	cmd     *exec.Cmd
	w       io.WriteCloser
	mu      sync.Mutex
	next    int
	waiting map[int]chan cdpReply
	session string
}

type cdpReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func startCDP(t *testing.T, bin string) *cdp {
	t.Helper()
	toChrome, chromeIn, err := os.Pipe()
	must(t, err)
	chromeOut, fromChrome, err := os.Pipe()
	must(t, err)
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
		"--user-data-dir="+t.TempDir(), "--window-size=1400,1100", "--remote-debugging-pipe", "about:blank")
	cmd.ExtraFiles = []*os.File{toChrome, fromChrome} // fds 3 and 4
	must(t, cmd.Start())
	toChrome.Close()
	fromChrome.Close()
	c := &cdp{t: t, cmd: cmd, w: chromeIn, waiting: map[int]chan cdpReply{}}
	t.Cleanup(func() { chromeIn.Close(); cmd.Process.Kill(); cmd.Wait() })
	go c.read(chromeOut)
	var targets struct {
		TargetInfos []struct{ TargetID, Type string } `json:"targetInfos"`
	}
	c.call("", "Target.getTargets", nil, &targets)
	for _, ti := range targets.TargetInfos {
		if ti.Type == "page" {
			var att struct {
				SessionID string `json:"sessionId"`
			}
			c.call("", "Target.attachToTarget", map[string]any{"targetId": ti.TargetID, "flatten": true}, &att)
			c.session = att.SessionID
		}
	}
	if c.session == "" {
		t.Fatal("chromium has no page to attach to")
	}
	return c
}

func (c *cdp) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var m struct {
			ID int `json:"id"`
			cdpReply
		}
		if json.Unmarshal(msg[:len(msg)-1], &m) != nil || m.ID == 0 {
			continue // events
		}
		c.mu.Lock()
		ch := c.waiting[m.ID]
		delete(c.waiting, m.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- m.cdpReply
		}
	}
}

// call sends a command (to the attached page unless session is "") and
// decodes its result into out.
func (c *cdp) call(session, method string, params any, out any) {
	c.t.Helper()
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan cdpReply, 1)
	c.waiting[id] = ch
	c.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	raw, _ := json.Marshal(msg)
	if _, err := c.w.Write(append(raw, 0)); err != nil {
		c.t.Fatalf("cdp %s: %v", method, err)
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			c.t.Fatalf("cdp %s: %s", method, r.Error.Message)
		}
		if out != nil {
			if err := json.Unmarshal(r.Result, out); err != nil {
				c.t.Fatalf("cdp %s: %v", method, err)
			}
		}
	case <-time.After(30 * time.Second):
		c.t.Fatalf("cdp %s: no answer", method)
	}
}

// eval evaluates a JavaScript expression in the page and returns its value.
func (c *cdp) eval(expr string) any {
	c.t.Helper()
	var r struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
		ExceptionDetails any `json:"exceptionDetails"`
	}
	c.call(c.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &r)
	if r.ExceptionDetails != nil {
		c.t.Fatalf("evaluating %s: %v", expr, r.ExceptionDetails)
	}
	return r.Result.Value
}

// waitFor evaluates expr until it is true.
func (c *cdp) waitFor(expr string, within time.Duration) {
	c.t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if v, _ := c.eval(expr).(bool); v {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.t.Fatalf("the page never satisfied %s; body: %v", expr, c.eval("document.body.innerText"))
}

func (c *cdp) screenshot() []byte {
	c.t.Helper()
	var r struct {
		Data []byte `json:"data"` // base64 in JSON, decoded by encoding/json
	}
	c.call(c.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &r)
	return r.Data
}

func (c *cdp) navigate(url string) {
	c.t.Helper()
	c.call(c.session, "Page.navigate", map[string]any{"url": url}, nil)
}
