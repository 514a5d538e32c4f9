package jsrun

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	lim := DefaultLimits
	lim.Timeout = 300 * time.Millisecond
	tests := []struct {
		note    string
		code    string
		inputs  any
		outcome string
		value   string // the JSON of the value, when OK
		err     string // a substring of the error
	}{
		{note: "async IIFE", code: `(async () => { const x = await Promise.resolve(inputs.n); return {doubled: x * 2}; })()`,
			inputs: map[string]any{"n": 21}, outcome: OK, value: `{"doubled":42}`},
		{note: "plain value", code: `inputs.items.filter(s => s.startsWith("a"))`,
			inputs: map[string]any{"items": []string{"ab", "b", "ac"}}, outcome: OK, value: `["ab","ac"]`},
		{note: "endless loop", code: `(async () => { for (;;) {} })()`, outcome: Timeout},
		{note: "endless await chain", code: `(async () => { for (;;) { await null; } })()`, outcome: Timeout},
		{note: "catastrophic backtracking", code: `/(a+)+\1b/.test("a".repeat(40))`, outcome: Timeout},
		{note: "no require", code: `(async () => require("fs").readFileSync("/etc/passwd", "utf8"))()`, outcome: Thrown, err: "require is not defined"},
		{note: "no process", code: `(async () => process.env)()`, outcome: Thrown, err: "process is not defined"},
		{note: "no timers", code: `(async () => new Promise(r => setTimeout(r, 10)))()`, outcome: Thrown, err: "setTimeout is not defined"},
		{note: "no fetch", code: `(async () => fetch("http://127.0.0.1/"))()`, outcome: Thrown, err: "fetch is not defined"},
		{note: "never settles", code: `(async () => { await new Promise(() => {}); return 1; })()`, outcome: Unsettled},
		{note: "rejected", code: `(async () => { throw new Error("boom"); })()`, outcome: Thrown, err: "boom"},
		{note: "deep recursion", code: `(function f(n) { return f(n + 1); })(0)`, outcome: Thrown, err: "call stack"},
		{note: "huge repeat", code: `"x".repeat(1 << 30)`, outcome: Thrown, err: "String.prototype.repeat: 1073741824 is over"},
		{note: "huge padEnd", code: `"x".padEnd(1e9)`, outcome: Thrown, err: "String.prototype.padEnd"},
		{note: "huge array", code: `new Array(1e8).fill(0).length`, outcome: Thrown, err: "Array length: 100000000 is over"},
		{note: "huge array called", code: `Array(1e8).length`, outcome: Thrown, err: "Array length"},
		{note: "array made long by its length", code: `(() => { const a = []; a.length = 1e8; return a.fill(0).length; })()`, outcome: Thrown, err: "Array.prototype.fill on an array of length: 100000000"},
		{note: "huge sparse concat", code: `(() => { const a = []; a[1e8] = 1; return [].concat(a).length; })()`, outcome: Thrown, err: "Array.prototype.concat"},
		{note: "huge Array.from", code: `Array.from({length: 1e8}).length`, outcome: Thrown, err: "Array.from"},
		{note: "huge ArrayBuffer", code: `new ArrayBuffer(2 ** 31).byteLength`, outcome: Thrown, err: "ArrayBuffer bytes"},
		{note: "huge typed array", code: `new Float64Array(1e8).length`, outcome: Thrown, err: "Float64Array bytes: 800000000"},
		{note: "arrays still work", code: `(() => { const a = new Array(3).fill(1); return [Array.isArray(a), a instanceof Array, Array.of(1, 2).concat([3]).length, [3, 1, 2].sort().join(","), new Uint8Array([1, 2]).length]; })()`,
			outcome: OK, value: `[true,true,3,"1,2,3",2]`},
		// One native call that builds a string or array from shared parts.
		{note: "join of shared strings", code: `(() => { const s = "x".repeat(1 << 20); return Array(1000).fill(s).join("").length; })()`, outcome: Thrown, err: "RangeError: Array.prototype.join: the result would be over"},
		{note: "toString joins", code: `String(Array(1000).fill("x".repeat(1 << 20))).length`, outcome: Thrown, err: "Array.prototype.join"},
		{note: "toLocaleString", code: `Array(1000).fill("x".repeat(1 << 20)).toLocaleString().length`, outcome: Thrown, err: "Array.prototype.toLocaleString"},
		{note: "JSON.stringify of shared strings", code: `JSON.stringify(Array(1000).fill("x".repeat(1 << 20))).length`, outcome: Thrown, err: "JSON.stringify: the result would be over"},
		{note: "JSON.stringify with a property list", code: `JSON.stringify({a: Array(1000).fill("x".repeat(1 << 20))}, ["a"]).length`, outcome: Thrown, err: "JSON.stringify"},
		{note: "JSON.stringify indentation", code: `(() => { let v = 0; for (let i = 0; i < 5000; i++) v = [v]; return JSON.stringify(v, null, 10).length; })()`, outcome: Thrown, err: "JSON.stringify"},
		{note: "concat of shared strings", code: `"".concat(...Array(1000).fill("x".repeat(1 << 20))).length`, outcome: Thrown, err: "String.prototype.concat"},
		{note: "replace with a function", code: `(() => { const s = "x".repeat(1 << 20); return "x".repeat(1000).replace(/x/g, () => s).length; })()`, outcome: Thrown, err: "String.prototype.replace"},
		{note: "replaceAll with a string", code: `"x".repeat(1000).replaceAll("x", "y".repeat(1 << 20)).length`, outcome: Thrown, err: "String.prototype.replace"},
		{note: "replace with $ patterns", code: `"x".repeat(1 << 20).replace(/x/g, "$'").length`, outcome: Thrown, err: "replacements with $ patterns"},
		{note: "Symbol.replace called directly", code: `/x/g[Symbol.replace]("x".repeat(1000), "y".repeat(1 << 20)).length`, outcome: Thrown, err: "String.prototype.replace"},
		{note: "split into characters", code: `"x".repeat(1 << 21).split("").length`, outcome: Thrown, err: "String.prototype.split: up to 2097153 parts"},
		{note: "typed array join", code: `new Uint8Array(1000).join("x".repeat(1 << 20)).length`, outcome: Thrown, err: "the result would be over"},
		{note: "String.raw of shared strings", code: `String.raw({raw: Array(1000).fill("x".repeat(1 << 20))}).length`, outcome: Thrown, err: "String.raw"},
		{note: "flat of shared arrays", code: `Array(2000).fill(new Array(1000).fill(0)).flat().length`, outcome: Thrown, err: "Array.prototype.flat: the result would have more than the sandbox's limit of 1048576 elements"},
		{note: "flat of an array that holds itself", code: `(() => { const a = [1]; a.push(a); return a.flat(Infinity).length; })()`, outcome: Thrown, err: "nested more than 1024 deep"},
		{note: "JSON.parse of deep nesting", code: `JSON.parse("[".repeat(4e6) + "]".repeat(4e6)).length`, outcome: Thrown, err: "JSON.parse: the text is nested 4000000 deep"},
		{note: "JSON.stringify of deep nesting", code: `(() => { let v = 0; for (let i = 0; i < 20000; i++) v = [v]; return JSON.stringify(v).length; })()`, outcome: Thrown, err: "JSON.stringify: the value is nested more than 10000 deep"},
		{note: "join of deep nesting", code: `(() => { let v = 0; for (let i = 0; i < 20000; i++) v = [v]; return String(v).length; })()`, outcome: Thrown, err: "Array.prototype.join: arrays nested more than 10000 deep"},
		{note: "eval of deep nesting", code: `eval("(".repeat(4e6) + "1" + ")".repeat(4e6))`, outcome: Thrown, err: "eval: 8000001 bytes of source is over"},
		{note: "Function of deep nesting", code: `new Function("return " + "[".repeat(4e6))`, outcome: Thrown, err: "Function: 4000007 bytes of source is over"},
		{note: "a function's constructor", code: `(function () {}).constructor("return " + "[".repeat(4e6))`, outcome: Thrown, err: "Function: 4000007 bytes"},
		{note: "the async function constructor", code: `Object.getPrototypeOf(async () => {}).constructor("[".repeat(4e6))`, outcome: Thrown, err: "AsyncFunction: 4000000 bytes"},
		{note: "compilers still work", code: `(async () => [eval("1 + 1"), Function("a", "b", "return a * b")(3, 4), new Function("return 5")(), await (async () => {}).constructor("return 6")(), (function () {}) instanceof Function, Function.prototype.constructor === Function, eval({x: 1}).x])()`,
			outcome: OK, value: `[2,12,5,6,true,true,1]`},
		{note: "JSON.parse still parses", code: `JSON.parse('{"a": [1, {"b": "[[{"}], "c": "\\"["}', (k, v) => v)`, outcome: OK, value: `{"a":[1,{"b":"[[{"}],"c":"\"["}`},
		{note: "builders still work", code: `(() => [
			[1, null, "a", undefined].join("-"), String([1, [2, 3]]), [1234.5].toLocaleString(), "a".concat("b", 1),
			"a-b-c".replace(/(\w)-/g, "$1+"), "aXbX".replaceAll("X", (m) => m.toLowerCase()), "a,b".split(","), /-/[Symbol.split]("a-b"),
			[1, [2, [3, [4]]]].flat(Infinity), new Uint8Array([1, 2]).join("+"), String.raw` + "`a${1}\\n${2}`" + `, String.raw({raw: ["x", "y", "z"]}, 1), JSON.stringify({b: 1, a: [true, "x"]}, ["a"]), JSON.stringify({a: 1}, (k, v) => typeof v === "number" ? v + 1 : v, 1),
		])()`, outcome: OK, value: `["1--a-","1,2,3","1234.5","ab1","a+b+c","axbx",["a","b"],["a","b"],[1,2,3,4],"1+2","a1\\n2","x1yz","{\"a\":[true,\"x\"]}","{\n \"a\": 2\n}"]`},
		{note: "cycle", code: `(() => { const a = {}; a.a = a; return a; })()`, outcome: Thrown, err: "circular"},
		{note: "function result", code: `(() => () => 1)()`, outcome: NotSerialisable},
		{note: "undefined result", code: `(async () => {})()`, outcome: OK, value: ``},
		{note: "output too large", code: `Array.from({length: 2000}, () => "x".repeat(200))`, outcome: OutputTooLarge},
		{note: "source too large", code: strings.Repeat(" ", 70<<10) + "1", outcome: SourceTooLarge},
		{note: "memory growth", code: `(async () => { const a = []; for (;;) a.push(new Array(1000).fill({x: 1})); })()`, outcome: MemoryExceeded},
	}
	for _, tc := range tests {
		t.Run(tc.note, func(t *testing.T) {
			lim := lim
			if tc.outcome == MemoryExceeded {
				lim.Timeout, lim.MemoryBytes = 10*time.Second, 16<<20
			}
			res := Run(context.Background(), tc.code, tc.inputs, lim)
			if res.Outcome != tc.outcome {
				t.Fatalf("outcome %s (%s), want %s", res.Outcome, res.Error, tc.outcome)
			}
			if tc.outcome == OK && res.JSON != tc.value {
				t.Errorf("value %s, want %s", res.JSON, tc.value)
			}
			if !strings.Contains(res.Error, tc.err) {
				t.Errorf("error %q, want it to contain %q", res.Error, tc.err)
			}
		})
	}
}

// BenchmarkStartup is the cost of one run_sandboxed_code call's sandbox:
// a fresh runtime, the prelude, the inputs and a trivial async IIFE.
func BenchmarkStartup(b *testing.B) {
	inputs := map[string]any{"files": []string{"src/a.ts", "src/b.ts"}}
	for b.Loop() {
		if res := Run(context.Background(), `(async () => ({n: inputs.files.length}))()`, inputs, DefaultLimits); res.Outcome != OK {
			b.Fatal(res.Error)
		}
	}
}
