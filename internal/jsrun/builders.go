package jsrun

import (
	"math"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// guardBuilders replaces the built-ins that build one string or array from
// parts shared many times over, in one native call: the heap watch cannot
// stop them midway, and their result can be far larger than everything
// the script allocated before (a million references to one 8 MB string,
// joined, is 8 TB). Each counts the result's length as it goes, or bounds
// it before it starts, and throws a RangeError past MaxStringBytes code
// units (or MaxElements elements), before the memory is taken:
//
//   - Array.prototype.join and toLocaleString (toString calls join), the
//     typed arrays' join and toLocaleString, String.prototype.concat and
//     String.raw are Go implementations of the standard's steps that stop
//     at the limit.
//   - JSON.stringify counts what a replacer it composes with the script's
//     own sees: each key, string, number and indentation.
//   - String.prototype.replace and replaceAll, and RegExp.prototype's
//     Symbol.replace, count what each replacement adds; a replacement
//     string with $ patterns is bounded from the number of matches first.
//   - String.prototype.split and RegExp.prototype's Symbol.split refuse a
//     result of more than MaxElements parts.
//   - Array.prototype.flat refuses a result longer than MaxElements,
//     counted (once per shared array) before it flattens.
//
// And those that recurse natively once per level of nesting, where a deep
// enough input overflows the Go stack, which no recover catches (the whole
// process dies): JSON.parse, JSON.stringify and join (through the
// elements' toString) refuse nesting deeper than maxJSONNesting, and flat
// deeper than maxFlatNesting.
func guardBuilders(vm *goja.Runtime, lim Limits, rangeError func(format string, args ...any)) error {
	g := builderGuard{vm: vm, lim: lim, rangeError: rangeError, joins: new(int)}
	array := vm.Get("Array").ToObject(vm).Get("prototype").ToObject(vm)
	str := vm.Get("String").ToObject(vm).Get("prototype").ToObject(vm)
	regexp := vm.Get("RegExp").ToObject(vm).Get("prototype").ToObject(vm)
	json := vm.Get("JSON").ToObject(vm)
	typed := vm.Get("Uint8Array").ToObject(vm).Get("prototype").ToObject(vm).Prototype() // %TypedArray%.prototype
	stringCtor := vm.Get("String").ToObject(vm)
	for _, def := range []struct {
		obj  *goja.Object
		name string
		fn   func(orig goja.Callable) func(goja.FunctionCall) goja.Value
	}{
		{array, "join", func(goja.Callable) func(goja.FunctionCall) goja.Value { return g.join(false) }},
		{array, "toLocaleString", func(goja.Callable) func(goja.FunctionCall) goja.Value { return g.join(true) }},
		{array, "flat", g.flat},
		{typed, "join", func(goja.Callable) func(goja.FunctionCall) goja.Value { return g.join(false) }},
		{typed, "toLocaleString", func(goja.Callable) func(goja.FunctionCall) goja.Value { return g.join(true) }},
		{stringCtor, "raw", func(goja.Callable) func(goja.FunctionCall) goja.Value { return g.raw }},
		{str, "concat", func(goja.Callable) func(goja.FunctionCall) goja.Value { return g.concat }},
		{str, "replace", g.replace(false)},
		{str, "replaceAll", g.replace(false)},
		{str, "split", g.split(false)},
		{json, "stringify", g.stringify},
		{json, "parse", g.parse},
	} {
		if def.obj == nil {
			continue
		}
		orig, ok := goja.AssertFunction(def.obj.Get(def.name))
		if !ok {
			continue
		}
		if err := def.obj.DefineDataProperty(def.name, vm.ToValue(def.fn(orig)), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
	}
	for sym, fn := range map[*goja.Symbol]func(goja.Callable) func(goja.FunctionCall) goja.Value{
		goja.SymReplace: g.replace(true), goja.SymSplit: g.split(true),
	} {
		orig, ok := goja.AssertFunction(regexp.GetSymbol(sym))
		if !ok {
			continue
		}
		if err := regexp.DefineDataPropertySymbol(sym, vm.ToValue(fn(orig)), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
	}
	return nil
}

type builderGuard struct {
	vm         *goja.Runtime
	lim        Limits
	rangeError func(format string, args ...any)
	joins      *int // joins under way: an array's elements' toString joins nested arrays
}

// grow adds n to *total and throws once it passes the string limit.
func (g builderGuard) grow(what string, total *int, n int) {
	*total += n
	if *total > g.lim.MaxStringBytes {
		g.rangeError("%s: the result would be over the sandbox's limit of %d characters", what, g.lim.MaxStringBytes)
	}
}

// length is ToLength(o.length), capped at MaxElements (a receiver past it
// was refused by the Array.prototype guard already).
func (g builderGuard) length(o *goja.Object) int {
	v := o.Get("length")
	if v == nil {
		return 0
	}
	f := v.ToFloat()
	if math.IsNaN(f) || f <= 0 {
		return 0
	}
	if f > float64(g.lim.MaxElements) {
		g.rangeError("an array of length %.0f is over the sandbox's limit of %d", f, g.lim.MaxElements)
	}
	return int(f)
}

// toStr is ToString(v) as a goja.String (a number's ToString is itself).
func (g builderGuard) toStr(v goja.Value) goja.String {
	s := v.ToString()
	if gs, ok := s.(goja.String); ok {
		return gs
	}
	if gs, ok := g.vm.ToValue(s.String()).(goja.String); ok {
		return gs
	}
	return goja.StringFromUTF16(nil)
}

// join is Array.prototype.join (locale: toLocaleString) as the standard
// gives its steps, counting the result.
func (g builderGuard) join(locale bool) func(goja.FunctionCall) goja.Value {
	what := "Array.prototype.join"
	if locale {
		what = "Array.prototype.toLocaleString"
	}
	return func(call goja.FunctionCall) goja.Value {
		if *g.joins >= maxJSONNesting {
			g.rangeError("%s: arrays nested more than %d deep", what, maxJSONNesting)
		}
		*g.joins++
		defer func() { *g.joins-- }()
		o := call.This.ToObject(g.vm)
		n := g.length(o)
		sep := goja.String(nil)
		if !locale && !goja.IsUndefined(call.Argument(0)) {
			sep = g.toStr(call.Argument(0))
		} else {
			sep = g.toStr(g.vm.ToValue(","))
		}
		var b goja.StringBuilder
		total := 0
		for k := 0; k < n; k++ {
			if k > 0 {
				g.grow(what, &total, sep.Length())
				b.WriteString(sep)
			}
			el := o.Get(strconv.Itoa(k))
			if el == nil || goja.IsUndefined(el) || goja.IsNull(el) {
				continue
			}
			if locale {
				m, ok := goja.AssertFunction(el.ToObject(g.vm).Get("toLocaleString"))
				if !ok {
					panic(g.vm.NewTypeError("toLocaleString is not a function"))
				}
				r, err := m(el)
				if err != nil {
					panic(err)
				}
				el = r
			}
			s := g.toStr(el)
			g.grow(what, &total, s.Length())
			b.WriteString(s)
		}
		return b.String()
	}
}

// raw is String.raw as the standard gives its steps, counting the result:
// its raw strings, one per element of template.raw, can be one string
// shared a million times.
func (g builderGuard) raw(call goja.FunctionCall) goja.Value {
	cooked := call.Argument(0).ToObject(g.vm)
	raw := cooked.Get("raw")
	if raw == nil || goja.IsUndefined(raw) || goja.IsNull(raw) {
		panic(g.vm.NewTypeError("String.raw: the template has no raw strings"))
	}
	literals := raw.ToObject(g.vm)
	n := g.length(literals)
	var b goja.StringBuilder
	total := 0
	for i := 0; i < n; i++ {
		s := g.toStr(literals.Get(strconv.Itoa(i)))
		g.grow("String.raw", &total, s.Length())
		b.WriteString(s)
		if i+1 < n && i+1 < len(call.Arguments) {
			sub := g.toStr(call.Arguments[i+1])
			g.grow("String.raw", &total, sub.Length())
			b.WriteString(sub)
		}
	}
	return b.String()
}

// concat is String.prototype.concat, counting the result.
func (g builderGuard) concat(call goja.FunctionCall) goja.Value {
	if goja.IsUndefined(call.This) || goja.IsNull(call.This) {
		panic(g.vm.NewTypeError("String.prototype.concat called on null or undefined"))
	}
	parts := make([]goja.String, 0, len(call.Arguments)+1)
	parts = append(parts, g.toStr(call.This))
	for _, a := range call.Arguments {
		parts = append(parts, g.toStr(a))
	}
	total := 0
	for _, p := range parts {
		g.grow("String.prototype.concat", &total, p.Length())
	}
	var b goja.StringBuilder
	for _, p := range parts {
		b.WriteString(p)
	}
	return b.String()
}

// replace wraps String.prototype.replace and replaceAll (onRegExp:
// RegExp.prototype[Symbol.replace], whose string is its first argument):
// a replacement function's results are counted as they come; a plain
// replacement string is counted per match; one with $ patterns, each of
// which can stand for up to the whole string, is bounded from the number
// of matches before the replacement runs.
func (g builderGuard) replace(onRegExp bool) func(orig goja.Callable) func(goja.FunctionCall) goja.Value {
	return func(orig goja.Callable) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			subject, at := call.This, 1
			if onRegExp {
				subject, at = call.Argument(0), 1
			}
			if goja.IsUndefined(subject) || goja.IsNull(subject) {
				return g.call(orig, call.This, call.Arguments) // the original's TypeError
			}
			base := g.toStr(subject).Length()
			args := append([]goja.Value{}, call.Arguments...)
			for len(args) <= at {
				args = append(args, goja.Undefined())
			}
			repl := args[at]
			total := base
			if fn, ok := goja.AssertFunction(repl); ok {
				args[at] = g.vm.ToValue(func(c goja.FunctionCall) goja.Value {
					r, err := fn(goja.Undefined(), c.Arguments...)
					if err != nil {
						panic(err)
					}
					s := g.toStr(r)
					g.grow("String.prototype.replace", &total, s.Length())
					return s
				})
				return g.call(orig, call.This, args)
			}
			text := g.toStr(repl)
			if dollars := strings.Count(text.String(), "$"); dollars > 0 {
				matches := 0
				args[at] = g.vm.ToValue(func(goja.FunctionCall) goja.Value { matches++; return goja.StringFromUTF16(nil) })
				g.call(orig, call.This, args)
				bound := float64(base) + float64(matches)*float64(text.Length()+dollars*base)
				if bound > float64(g.lim.MaxStringBytes) {
					g.rangeError("String.prototype.replace: %d replacements with $ patterns could make %.0f characters, over the sandbox's limit of %d", matches, bound, g.lim.MaxStringBytes)
				}
				args[at] = text
				return g.call(orig, call.This, args)
			}
			args[at] = g.vm.ToValue(func(goja.FunctionCall) goja.Value {
				g.grow("String.prototype.replace", &total, text.Length())
				return text
			})
			return g.call(orig, call.This, args)
		}
	}
}

// split wraps String.prototype.split (onRegExp: RegExp.prototype's
// Symbol.split): with no limit under MaxElements, a subject that could
// split into more parts than that is refused: a string separator's parts
// are counted, any other may give up to one part per character.
func (g builderGuard) split(onRegExp bool) func(orig goja.Callable) func(goja.FunctionCall) goja.Value {
	return func(orig goja.Callable) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			subject, sep, limit := call.This, call.Argument(0), call.Argument(1)
			if onRegExp {
				subject, sep = call.Argument(0), call.This
			}
			if goja.IsUndefined(subject) || goja.IsNull(subject) || goja.IsUndefined(sep) && !onRegExp {
				return g.call(orig, call.This, call.Arguments)
			}
			if !goja.IsUndefined(limit) {
				if l := limit.ToFloat(); l >= 0 && l <= float64(g.lim.MaxElements) {
					return g.call(orig, call.This, call.Arguments)
				}
			}
			s := g.toStr(subject)
			parts := s.Length() + 1
			if _, isObj := sep.(*goja.Object); !isObj && !onRegExp {
				if sepText := g.toStr(sep).String(); sepText != "" {
					parts = strings.Count(s.String(), sepText) + 1
				}
			}
			if parts > g.lim.MaxElements {
				g.rangeError("String.prototype.split: up to %d parts is over the sandbox's limit of %d", parts, g.lim.MaxElements)
			}
			return g.call(orig, call.This, call.Arguments)
		}
	}
}

// flat wraps Array.prototype.flat: the flattened length is counted first,
// each nested array once per depth however often it is shared.
func (g builderGuard) flat(orig goja.Callable) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		depth := 1.0
		if d := call.Argument(0); !goja.IsUndefined(d) {
			if depth = d.ToFloat(); math.IsNaN(depth) {
				depth = 0
			}
		}
		if o, ok := call.This.(*goja.Object); ok {
			seen := map[flatKey]float64{}
			if g.flatLength(o, depth, seen, 0) > float64(g.lim.MaxElements) {
				g.rangeError("Array.prototype.flat: the result would have more than the sandbox's limit of %d elements", g.lim.MaxElements)
			}
		}
		return g.call(orig, call.This, call.Arguments)
	}
}

type flatKey struct {
	o     *goja.Object
	depth float64
}

// maxFlatNesting bounds the nesting flat may descend: the built-in
// recurses natively, once per level, and an array that holds itself
// flattened to a great depth would recurse until the stack runs out.
const maxFlatNesting = 1024

// flatLength is the length of o flattened to depth, each (array, depth)
// counted once however often it is shared; nesting past maxFlatNesting is
// refused.
func (g builderGuard) flatLength(o *goja.Object, depth float64, seen map[flatKey]float64, nesting int) float64 {
	key := flatKey{o, depth}
	if n, ok := seen[key]; ok {
		return n
	}
	if nesting > maxFlatNesting {
		g.rangeError("Array.prototype.flat: arrays nested more than %d deep", maxFlatNesting)
	}
	n := float64(g.length(o))
	if depth < 1 {
		seen[key] = n
		return n
	}
	total := 0.0
	for k := 0; k < int(n); k++ {
		el := o.Get(strconv.Itoa(k))
		if el == nil {
			continue // a hole: flat skips it
		}
		if inner, ok := el.(*goja.Object); ok && inner.ClassName() == "Array" {
			total += g.flatLength(inner, depth-1, seen, nesting+1)
		} else {
			total++
		}
		if total > float64(g.lim.MaxElements) {
			break
		}
	}
	seen[key] = total
	return total
}

// stringify wraps JSON.stringify with a replacer that counts the text it
// will write (keys, strings, numbers, punctuation and indentation) and
// calls the script's own replacer function first. A property-list
// replacer (an array) cannot be composed: the value is first counted
// without it (the list only leaves properties out), then written with it.
func (g builderGuard) stringify(orig goja.Callable) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		value, replacer, space := call.Argument(0), call.Argument(1), call.Argument(2)
		gap := 0
		switch sp := space.Export().(type) {
		case int64:
			gap = int(min(max(sp, 0), 10))
		case float64:
			gap = int(min(max(sp, 0), 10))
		case string:
			gap = min(len(sp), 10)
		}
		total := 0
		depth := map[*goja.Object]int{}
		user, isFn := goja.AssertFunction(replacer)
		counting := g.vm.ToValue(func(c goja.FunctionCall) goja.Value {
			k, v := c.Argument(0), c.Argument(1)
			if isFn {
				r, err := user(c.This, k, v)
				if err != nil {
					panic(err)
				}
				v = r
			}
			d := 0
			if h, ok := c.This.(*goja.Object); ok {
				d = depth[h]
			}
			if d >= maxJSONNesting {
				g.rangeError("JSON.stringify: the value is nested more than %d deep", maxJSONNesting)
			}
			n := g.toStr(k).Length() + 4 + gap*(d+1)
			switch x := v.(type) {
			case *goja.Object:
				depth[x] = d + 1
			case goja.String:
				n += x.Length()
			default:
				n += 24
			}
			g.grow("JSON.stringify", &total, n)
			return v
		})
		if list, ok := replacer.(*goja.Object); ok && !isFn && list.ClassName() == "Array" {
			g.call(orig, call.This, []goja.Value{value, counting, space})
			return g.call(orig, call.This, call.Arguments)
		}
		return g.call(orig, call.This, []goja.Value{value, counting, space})
	}
}

// maxJSONNesting bounds the nesting JSON.parse reads and JSON.stringify
// and join write, as Go's encoding/json bounds its own: goja recurses once
// per level, and JSON.parse("[".repeat(4e6)) overflows the stack and ends
// the process.
const maxJSONNesting = 10000

// parse wraps JSON.parse: the text's nesting is measured before it is
// parsed.
func (g builderGuard) parse(orig goja.Callable) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		text := g.toStr(call.Argument(0))
		if depth := jsonNesting(text.String()); depth > maxJSONNesting {
			g.rangeError("JSON.parse: the text is nested %d deep, over the sandbox's limit of %d", depth, maxJSONNesting)
		}
		args := append([]goja.Value{text}, call.Arguments[min(1, len(call.Arguments)):]...)
		return g.call(orig, call.This, args)
	}
}

// jsonNesting is the deepest nesting of brackets and braces in s outside
// its strings.
func jsonNesting(s string) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// call calls a built-in, rethrowing what it throws.
func (g builderGuard) call(fn goja.Callable, this goja.Value, args []goja.Value) goja.Value {
	v, err := fn(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}
