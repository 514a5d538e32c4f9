package jsrun

import (
	"fmt"
	"math"

	"github.com/dop251/goja"
)

// guardBuiltins replaces the built-ins that allocate, or walk, a large
// amount in a single native call, where an interrupt cannot reach: goja
// checks for one only between instructions, so `new Array(1e8).fill(0)`
// would allocate gigabytes (and `a.length = 1e9; a.indexOf(1)` run past any
// deadline) before the watch could stop it. The wrappers are Go functions:
// JavaScript proxies cost ten times as much to set up per run, and goja's
// instanceof does not see through them.
//
//   - String: repeat, padStart and padEnd refuse results over MaxStringBytes.
//   - Array: the constructor and Array.from refuse lengths over MaxElements;
//     every Array.prototype method refuses a receiver (and concat an
//     argument) longer than that, so an array made long by assigning its
//     length stays inert.
//   - ArrayBuffer, SharedArrayBuffer and the typed arrays refuse more than
//     MaxBufferBytes.
//   - The built-ins that build one string or array from shared parts (join,
//     JSON.stringify, replace, concat, split, flat) count their result as
//     they build it (see guardBuilders).
//   - eval and the Function constructors compile at most MaxSourceBytes
//     (see guardCompilers).
func guardBuiltins(vm *goja.Runtime, lim Limits) error {
	rangeError := func(format string, args ...any) {
		ctor := vm.Get("RangeError").ToObject(vm)
		obj, err := vm.New(ctor, vm.ToValue(fmt.Sprintf(format, args...)))
		if err != nil {
			panic(err)
		}
		panic(obj)
	}
	over := func(what string, n float64, limit int) {
		if n > float64(limit) {
			rangeError("%s: %.0f is over the sandbox's limit of %d", what, n, limit)
		}
	}
	lengthOf := func(v goja.Value) float64 {
		o, ok := v.(*goja.Object)
		if !ok || o == nil {
			return 0
		}
		n := o.Get("length")
		if n == nil {
			return 0
		}
		f := n.ToFloat()
		if math.IsNaN(f) || f < 0 {
			return 0
		}
		return f
	}
	wrap := func(obj *goja.Object, name string, check func(call goja.FunctionCall)) error {
		orig, ok := goja.AssertFunction(obj.Get(name))
		if !ok {
			return nil
		}
		return obj.DefineDataProperty(name, vm.ToValue(func(call goja.FunctionCall) goja.Value {
			check(call)
			v, err := orig(call.This, call.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		}), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}

	str := vm.Get("String").ToObject(vm).Get("prototype").ToObject(vm)
	for _, name := range []string{"repeat", "padStart", "padEnd"} {
		err := wrap(str, name, func(call goja.FunctionCall) {
			n := call.Argument(0).ToFloat()
			if name == "repeat" {
				n *= float64(len(call.This.String()))
			}
			over("String.prototype."+name, n, lim.MaxStringBytes)
		})
		if err != nil {
			return err
		}
	}

	array := vm.Get("Array").ToObject(vm)
	proto := array.Get("prototype").ToObject(vm)
	for _, name := range arrayMethods {
		err := wrap(proto, name, func(call goja.FunctionCall) {
			n := lengthOf(call.This)
			over("Array.prototype."+name+" on an array of length", n, lim.MaxElements)
			if name == "concat" {
				for _, a := range call.Arguments {
					n += lengthOf(a)
				}
				over("Array.prototype.concat result length", n, lim.MaxElements)
			}
		})
		if err != nil {
			return err
		}
	}
	if err := wrap(array, "from", func(call goja.FunctionCall) {
		over("Array.from", lengthOf(call.Argument(0)), lim.MaxElements)
	}); err != nil {
		return err
	}
	if err := guardConstructor(vm, "Array", func(args []goja.Value) {
		if len(args) == 1 {
			if _, isNum := args[0].Export().(int64); isNum || isFloat(args[0]) {
				over("Array length", args[0].ToFloat(), lim.MaxElements)
			}
		}
	}); err != nil {
		return err
	}
	for name, per := range bufferTypes {
		err := guardConstructor(vm, name, func(args []goja.Value) {
			if len(args) == 0 {
				return
			}
			a := args[0]
			if o, ok := a.(*goja.Object); ok {
				if _, isBuffer := o.Export().(goja.ArrayBuffer); isBuffer {
					return // a view of a buffer that was itself checked
				}
				over(name+" bytes", lengthOf(o)*per, lim.MaxBufferBytes)
				return
			}
			over(name+" bytes", a.ToFloat()*per, lim.MaxBufferBytes)
		})
		if err != nil {
			return err
		}
	}
	if err := guardBuilders(vm, lim, rangeError); err != nil {
		return err
	}
	return guardCompilers(vm, lim, rangeError)
}

func isFloat(v goja.Value) bool {
	_, ok := v.Export().(float64)
	return ok
}

// guardConstructor replaces the global constructor name with one that runs
// check on its arguments first. Instances keep the original's prototype, so
// instanceof and the static methods work as before.
func guardConstructor(vm *goja.Runtime, name string, check func(args []goja.Value)) error {
	v := vm.Get(name)
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	orig := v.ToObject(vm)
	ctor := vm.ToValue(func(call goja.ConstructorCall) *goja.Object {
		check(call.Arguments)
		obj, err := vm.New(orig, call.Arguments...)
		if err != nil {
			panic(err)
		}
		return obj
	}).ToObject(vm)
	if err := ctor.DefineDataProperty("prototype", orig.Get("prototype"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		return err
	}
	for _, static := range []string{"from", "of", "isArray", "BYTES_PER_ELEMENT", "isView"} {
		if s := orig.Get(static); s != nil && !goja.IsUndefined(s) {
			if err := ctor.Set(static, s); err != nil {
				return err
			}
		}
	}
	return vm.Set(name, ctor)
}

// arrayMethods are the Array.prototype methods (ES2023, as goja has them);
// each walks or builds up to its receiver's length in one native call.
var arrayMethods = []string{
	"at", "concat", "copyWithin", "entries", "every", "fill", "filter", "find", "findIndex", "findLast",
	"findLastIndex", "flat", "flatMap", "forEach", "includes", "indexOf", "join", "keys", "lastIndexOf",
	"map", "pop", "push", "reduce", "reduceRight", "reverse", "shift", "slice", "some", "sort", "splice",
	"toLocaleString", "toReversed", "toSorted", "toSpliced", "toString", "unshift", "values", "with",
}

// bufferTypes are the constructors that allocate a buffer, with the bytes
// each element takes.
var bufferTypes = map[string]float64{
	"ArrayBuffer": 1, "SharedArrayBuffer": 1, "Int8Array": 1, "Uint8Array": 1, "Uint8ClampedArray": 1,
	"Int16Array": 2, "Uint16Array": 2, "Int32Array": 4, "Uint32Array": 4, "Float32Array": 4,
	"Float64Array": 8, "BigInt64Array": 8, "BigUint64Array": 8,
}
