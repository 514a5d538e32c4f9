// Package jsrun runs an agent's JavaScript (an async IIFE) in an embedded
// goja runtime with nothing of the host in reach: no require, no
// filesystem, network, process, timers or console, only the ECMAScript
// built-ins and the JSON inputs it is given. A fresh runtime serves each
// call and is dropped after it.
//
// What holds, and what does not:
//   - Time: a deadline interrupts the runtime (vm.Interrupt), which stops
//     any loop, including `for(;;){}` and a spinning await chain.
//   - Stack: recursion is capped (SetMaxCallStackSize), and the built-ins
//     that recurse natively once per level of nesting (JSON.parse and
//     stringify, join, flat) refuse deep nesting: a Go stack overflow ends
//     the whole process, past any recover.
//   - Memory: mcpc serve runs each script in a process of its own
//     (IsolateIn) whose address space is capped (RLIMIT_AS, Linux) at what
//     it mapped at start plus three times the cap plus 256 MiB: a script
//     that allocates past it, even in one native call, ends only that
//     process, and its outcome is memory_exceeded. In process (tests, other
//     systems) goja has no heap limit of its own; two guards stand in for
//     it. The runtime is interrupted once the process's heap, sampled
//     every millisecond (runtime/metrics, no stop-the-world), has grown past
//     its level at start by more than the cap in live bytes (as of the last
//     collection), or by four times the cap in allocated bytes. That watch
//     can only stop the script between two instructions, never inside one
//     native built-in, so the built-ins that allocate or walk a large amount
//     in one call are guarded in either mode (guardBuiltins, guardBuilders):
//     strings over MaxStringBytes, arrays over MaxElements and buffers over
//     MaxBufferBytes are refused with a RangeError before they are
//     allocated, including those built from parts shared many times over
//     (join, JSON.stringify, replace, concat, split, flat). What is left in
//     process: one instruction can still allocate once past the cap before
//     the watch sees it (a + of two strings the cap allows makes one twice
//     as long), so the heap can overshoot the cap by a few times, not
//     without bound; only the isolated process's limit is exact.
//   - Size: the source and the JSON result are bounded.
package jsrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/metrics"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// Outcomes of a run.
const (
	OK              = "ok"
	Timeout         = "timeout"
	MemoryExceeded  = "memory_exceeded"
	Thrown          = "error"
	Unsettled       = "unsettled" // the promise never resolved (it awaits nothing that can run)
	OutputTooLarge  = "output_too_large"
	SourceTooLarge  = "source_too_large"
	NotSerialisable = "not_serialisable"
)

// Limits bound one run.
type Limits struct {
	Timeout        time.Duration
	MemoryBytes    uint64
	MaxSourceBytes int
	MaxOutputBytes int
	MaxStringBytes int
	// MaxElements bounds an array a built-in creates or walks in one step.
	MaxElements int
	// MaxBufferBytes bounds an ArrayBuffer or typed array.
	MaxBufferBytes int
	MaxCallStack   int
}

// DefaultLimits are the server's defaults (and ceilings: see Clamp).
var DefaultLimits = Limits{
	Timeout: time.Second, MemoryBytes: 64 << 20, MaxSourceBytes: 64 << 10,
	MaxOutputBytes: 256 << 10, MaxStringBytes: 8 << 20, MaxElements: 1 << 20, MaxBufferBytes: 16 << 20,
	MaxCallStack: 1024,
}

// Result is what a run produced.
type Result struct {
	Outcome string `json:"outcome"`
	Error   string `json:"error,omitempty"`
	// Value is the settled value, decoded from its JSON (nil unless OK).
	Value any `json:"value"`
	// JSON is the value as JSON.stringify wrote it ("" for undefined).
	JSON       string `json:"-"`
	DurationMs int64  `json:"durationMs"`
}

// Run evaluates code, which must evaluate to a value or a promise (an async
// IIFE), with inputs bound to the global `inputs`.
//
// With IsolateIn set, the script runs in a process of its own under a hard
// memory limit; otherwise in this process, under the guards above.
func Run(ctx context.Context, code string, inputs any, lim Limits) Result {
	start := time.Now()
	var res Result
	if isolatedExe != "" && len(code) <= lim.MaxSourceBytes {
		res = runIsolated(ctx, isolatedExe, code, inputs, lim)
	} else {
		res = run(ctx, code, inputs, lim)
	}
	res.DurationMs = time.Since(start).Milliseconds()
	return res
}

// runInProcess is Run in this process, whatever IsolateIn says (the
// child's side of an isolated run).
func runInProcess(ctx context.Context, code string, inputs any, lim Limits) Result {
	return run(ctx, code, inputs, lim)
}

func run(ctx context.Context, code string, inputs any, lim Limits) Result {
	if len(code) > lim.MaxSourceBytes {
		return Result{Outcome: SourceTooLarge, Error: fmt.Sprintf("the code is %d bytes, over the limit of %d", len(code), lim.MaxSourceBytes)}
	}
	rawInputs, err := json.Marshal(inputs)
	if err != nil {
		return Result{Outcome: NotSerialisable, Error: "inputs: " + err.Error()}
	}
	vm := goja.New()
	vm.SetMaxCallStackSize(lim.MaxCallStack)
	stop := watch(ctx, vm, lim)
	defer stop()

	if err := guardBuiltins(vm, lim); err != nil {
		return Result{Outcome: Thrown, Error: "the sandbox could not be prepared: " + err.Error()}
	}
	parse, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("parse"))
	in, err := parse(goja.Undefined(), vm.ToValue(string(rawInputs)))
	if err != nil {
		return Result{Outcome: Thrown, Error: "inputs: " + err.Error()}
	}
	if err := vm.Set("inputs", in); err != nil {
		return Result{Outcome: Thrown, Error: err.Error()}
	}
	v, err := vm.RunScript("sandboxed.js", code)
	if err != nil {
		return failure(err)
	}
	if p, ok := v.Export().(*goja.Promise); ok {
		switch p.State() {
		case goja.PromiseStateFulfilled:
			v = p.Result()
		case goja.PromiseStateRejected:
			return Result{Outcome: Thrown, Error: "the promise was rejected: " + describe(p.Result())}
		default:
			return Result{Outcome: Unsettled, Error: "the promise never settled: it awaits something that cannot happen in the sandbox (there are no timers or I/O)"}
		}
	}
	return settle(vm, v, lim)
}

// settle serialises the value inside the runtime (so a cycle is a
// TypeError there, and a huge value is still interruptible) and decodes it.
func settle(vm *goja.Runtime, v goja.Value, lim Limits) Result {
	if goja.IsUndefined(v) {
		return Result{Outcome: OK}
	}
	stringify, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("stringify"))
	s, err := stringify(goja.Undefined(), v)
	if err != nil {
		return failure(err)
	}
	if goja.IsUndefined(s) { // a function or a symbol
		return Result{Outcome: NotSerialisable, Error: "the value has no JSON form"}
	}
	text := s.String()
	if len(text) > lim.MaxOutputBytes {
		return Result{Outcome: OutputTooLarge, Error: fmt.Sprintf("the result is %d bytes of JSON, over the limit of %d", len(text), lim.MaxOutputBytes)}
	}
	var out any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		return Result{Outcome: NotSerialisable, Error: err.Error()}
	}
	return Result{Outcome: OK, Value: out, JSON: text}
}

// interrupted is the value the watchdog interrupts with.
type interrupted string

func failure(err error) Result {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if why, ok := ie.Value().(interrupted); ok {
			if why == MemoryExceeded {
				return Result{Outcome: MemoryExceeded, Error: "the script's heap grew past the memory cap"}
			}
			return Result{Outcome: Timeout, Error: "the script ran past its deadline and was stopped"}
		}
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return Result{Outcome: Thrown, Error: describe(ex.Value())}
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		return Result{Outcome: Thrown, Error: "RangeError: maximum call stack size exceeded"}
	}
	return Result{Outcome: Thrown, Error: err.Error()}
}

func describe(v goja.Value) string {
	if v == nil {
		return "undefined"
	}
	s := v.String()
	if len(s) > 500 {
		s = s[:500] + "…"
	}
	return s
}

// watch interrupts vm at the deadline, when ctx ends, or when the heap has
// grown past the cap; stop ends the watch.
func watch(ctx context.Context, vm *goja.Runtime, lim Limits) (stop func()) {
	done := make(chan struct{})
	baseLive, baseObjects := heap()
	go func() {
		deadline := time.NewTimer(lim.Timeout)
		defer deadline.Stop()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				vm.Interrupt(interrupted(Timeout))
				return
			case <-deadline.C:
				vm.Interrupt(interrupted(Timeout))
				return
			case <-tick.C:
				if live, objects := heap(); grew(live, baseLive) > lim.MemoryBytes || grew(objects, baseObjects) > 4*lim.MemoryBytes {
					vm.Interrupt(interrupted(MemoryExceeded))
					return
				}
			}
		}
	}()
	return func() { close(done); vm.ClearInterrupt() }
}

// heap reads the live heap as of the last collection and the bytes of
// heap objects (live or not yet swept); neither read stops the world.
func heap() (live, objects uint64) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = s[0].Value.Uint64()
	}
	if s[1].Value.Kind() == metrics.KindUint64 {
		objects = s[1].Value.Uint64()
	}
	return live, objects
}

func grew(now, base uint64) uint64 {
	if now <= base {
		return 0
	}
	return now - base
}

// TypeOf is the JSON type name of a decoded value, as expectedShape names
// types: string, number, boolean, object, array, null.
func TypeOf(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64, json.Number:
		return "number"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case nil:
		return "null"
	}
	return strings.ToLower(fmt.Sprintf("%T", v))
}
