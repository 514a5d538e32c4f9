package jsrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// childEnv marks a process started to run one script (see ChildMain).
const childEnv = "MCPC_JSRUN_CHILD"

// isolatedExe is the executable scripts run in, one process per run; empty
// runs them in this process.
var isolatedExe string

// IsolateIn makes Run start exe (a binary whose main calls ChildMain first)
// for every script, so the memory cap is a hard address-space limit of
// that process and a script that exhausts it ends only itself. mcpc's main
// calls it with its own executable; tests that link the runtime without
// that main run scripts in process.
func IsolateIn(exe string) { isolatedExe = exe }

// request is what the parent sends the child on stdin.
type request struct {
	Code   string          `json:"code"`
	Inputs json.RawMessage `json:"inputs"`
	Limits Limits          `json:"limits"`
}

// ChildMain runs the script a parent sent when this process was started as
// a script runner, writes the Result as JSON on stdout and reports true;
// in any other process it does nothing and reports false.
func ChildMain() bool {
	if os.Getenv(childEnv) != "1" {
		return false
	}
	var req request
	dec := json.NewDecoder(io.LimitReader(os.Stdin, 64<<20))
	res := Result{Outcome: Thrown, Error: "the sandbox got no request"}
	if err := dec.Decode(&req); err == nil {
		limitMemory(req.Limits.MemoryBytes)
		var inputs any
		_ = json.Unmarshal(req.Inputs, &inputs)
		res = runInProcess(context.Background(), req.Code, inputs, req.Limits)
	}
	_ = json.NewEncoder(os.Stdout).Encode(childResult{Result: res, JSON: res.JSON})
	return true
}

// childResult carries the JSON text Result does not marshal.
type childResult struct {
	Result
	JSON string `json:"json"`
}

// runIsolated runs the script in a child process and reads its Result.
func runIsolated(ctx context.Context, exe, code string, inputs any, lim Limits) Result {
	rawInputs, err := json.Marshal(inputs)
	if err != nil {
		return Result{Outcome: NotSerialisable, Error: "inputs: " + err.Error()}
	}
	body, err := json.Marshal(request{Code: code, Inputs: rawInputs, Limits: lim})
	if err != nil {
		return Result{Outcome: Thrown, Error: err.Error()}
	}
	// The child stops itself at the deadline; the parent's own, a little
	// later, covers a child that cannot (stuck in one native call).
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout+2*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe)
	// Nothing of the server's environment: the script has no way to read
	// it, and the child needs none of it.
	cmd.Env = []string{childEnv + "=1", "GOMAXPROCS=1", "GOTRACEBACK=none"}
	cmd.Stdin = bytes.NewReader(body)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &limitedBuffer{buf: &stdout, max: lim.MaxOutputBytes*2 + 64<<10}
	cmd.Stderr = &limitedBuffer{buf: &stderr, max: 64 << 10}
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	var out childResult
	if jerr := json.Unmarshal(stdout.Bytes(), &out); jerr == nil && err == nil {
		out.Result.JSON = out.JSON
		return out.Result
	}
	switch {
	case ctx.Err() != nil:
		return Result{Outcome: Timeout, Error: "the script ran past its deadline and its process was killed"}
	case strings.Contains(stderr.String(), "out of memory") || strings.Contains(stderr.String(), "cannot allocate memory"):
		return Result{Outcome: MemoryExceeded, Error: "the script's process ran out of its memory cap"}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return Result{Outcome: Thrown, Error: fmt.Sprintf("the script's process ended with %v", ee.ProcessState)}
	}
	if err != nil {
		return Result{Outcome: Thrown, Error: "the sandbox process could not run: " + err.Error()}
	}
	return Result{Outcome: Thrown, Error: "the sandbox process answered nothing readable"}
}

// limitedBuffer keeps at most max bytes and drops the rest.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
