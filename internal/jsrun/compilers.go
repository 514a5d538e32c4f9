package jsrun

import (
	"github.com/dop251/goja"
)

// functionPrototypes evaluates to the prototypes of the async and generator
// functions, whose constructors (like Function) compile source text and are
// reachable only through them (goja has no async generators).
var functionPrototypes = goja.MustCompile("prototypes.js",
	"[Object.getPrototypeOf(async function () {}), Object.getPrototypeOf(function* () {})]", false)

// guardCompilers holds the source a script compiles while it runs to
// MaxSourceBytes, as its own source is: eval and the Function constructors
// (Function, and the async and generator ones reached through a function's
// constructor) take source text, and goja's parser
// recurses once per level of nesting, so eval("(".repeat(4e6) + ...)
// overflows the Go stack, which ends the whole process past any recover.
// The nesting source of MaxSourceBytes allows is what the parser handles
// for the script itself. Each argument is converted to a string once and
// the original compiles those strings.
func guardCompilers(vm *goja.Runtime, lim Limits, rangeError func(format string, args ...any)) error {
	sources := func(what string, args []goja.Value) []goja.Value {
		out := make([]goja.Value, len(args))
		total := 0
		for i, a := range args {
			s := a.ToString()
			out[i] = s
			total += len(s.String())
		}
		if total > lim.MaxSourceBytes {
			rangeError("%s: %d bytes of source is over the sandbox's limit of %d", what, total, lim.MaxSourceBytes)
		}
		return out
	}
	if eval, ok := goja.AssertFunction(vm.Get("eval")); ok {
		err := vm.Set("eval", func(call goja.FunctionCall) goja.Value {
			x := call.Argument(0)
			if _, isString := x.(goja.String); isString {
				x = sources("eval", []goja.Value{x})[0]
			}
			v, err := eval(goja.Undefined(), x)
			if err != nil {
				panic(err)
			}
			return v
		})
		if err != nil {
			return err
		}
	}
	function := vm.Get("Function").ToObject(vm)
	protos := []*goja.Object{function.Get("prototype").ToObject(vm)}
	others, err := vm.RunProgram(functionPrototypes)
	if err != nil {
		return err
	}
	list := others.ToObject(vm)
	for i := 0; i < 2; i++ {
		protos = append(protos, list.Get(string(rune('0'+i))).ToObject(vm))
	}
	for _, proto := range protos {
		orig := proto.Get("constructor").ToObject(vm)
		what := orig.Get("name").String()
		guarded := vm.ToValue(func(call goja.ConstructorCall) *goja.Object {
			obj, err := vm.New(orig, sources(what, call.Arguments)...)
			if err != nil {
				panic(err)
			}
			return obj
		}).ToObject(vm)
		if err := guarded.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
			return err
		}
		if err := proto.DefineDataProperty("constructor", guarded, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
		if orig == function {
			if err := vm.Set("Function", guarded); err != nil {
				return err
			}
		}
	}
	return nil
}
