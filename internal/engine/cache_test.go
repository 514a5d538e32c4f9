package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// staticPolicy has rules that read only data (static) beside rules that
// reach input directly, through another rule, a function, a reference with
// a variable, a default, a member of a member, or call a non-deterministic
// built-in (dynamic).
const staticPolicy = `package t



table := data.tbl

doubled := [y | some x in data.tbl.nums; y := x * 2]

pure := g(2)

g(x) := x * 3

names contains name if some name, _ in data.tbl

reads_input := input.x

via_rule := reads_input + 1

via_func := f(1)

f(x) := x + input.y

via_var := [v | some k; v := data.t.sub[k]]

default with_default := 0

with_default := 1 if input.flag

clock := time.now_ns()

default lookup := "none"

lookup := data.tbl[input.key]

whole := count(input)

nested := count(input.n.list)

both := [count(input.n), count(input.n.list)]

out := {
	"table": table, "doubled": doubled, "pure": pure, "names": names,
	"reads_input": reads_input, "via_rule": via_rule, "via_func": via_func,
	"via_var": via_var, "with_default": with_default, "clock": clock > 0,
	"lookup": lookup, "whole": whole, "nested": nested, "both": both,
}
`

const staticSub = `package t.sub



a := input.x

b := 2
`

// TestStaticRules: rules no input can change keep one value, rules that
// read a few input members keep theirs by those members, the others keep
// none; evaluations with other inputs still see their own values.
func TestStaticRules(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for name, text := range map[string]string{"t.rego": staticPolicy, "sub.rego": staticSub, "tbl/data.json": `{"nums":[1,2]}`} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := New(ctx, Options{BundlePath: dir, Query: "data.t.out"})
	if err != nil {
		t.Fatal(err)
	}
	// kept: "static" (one value), the input members a memoized value is
	// kept by, or "" (evaluated every time)
	for _, tc := range []struct {
		rule, kept string
	}{
		{"table", "static"},
		{"doubled", "static"},
		{"pure", "static"},
		{"names", "static"},
		{"reads_input", "x"},
		{"via_rule", "x"},
		{"via_func", "y"},
		{"via_var", "x"},
		{"with_default", "flag"},
		{"lookup", "key"},
		{"nested", "n.list"},
		{"both", "n"},
		{"whole", ""},
		{"clock", ""},
		{"out", ""},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			ref := ast.MustParseRef("data.t." + tc.rule)
			got := ""
			if r := e.static.find(ref, ref.Hash()); r != nil {
				var names []string
				for _, m := range r.members {
					names = append(names, m.String())
				}
				got = strings.Join(names, ",")
				if got == "" {
					got = "static"
				}
			}
			if got != tc.kept {
				t.Errorf("kept %q, want %q", got, tc.kept)
			}
		})
	}
	for round := range 2 {
		for _, x := range []int{1, 5} {
			var out map[string]any
			// n.list follows x, n.clock every evaluation: nested is kept
			// by n.list's value, whatever n's other members
			n := map[string]any{"list": make([]int, x), "clock": 2*round + x}
			in := map[string]any{"x": x, "y": 10 * x, "flag": x > 1, "key": map[bool]string{true: "nums", false: "other"}[x > 1], "n": n}
			if _, _, err := e.Evaluate(ctx, in, &out); err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(out)
			flag, lookup := 0, `"none"`
			if x > 1 {
				flag, lookup = 1, `[1,2]`
			}
			want := fmt.Sprintf(`{"both":[2,%d],"clock":true,"doubled":[2,4],"lookup":%s,"names":["nums"],"nested":%d,"pure":6,"reads_input":%d,"table":{"nums":[1,2]},"via_func":%d,"via_rule":%d,"via_var":[%d,2],"whole":5,"with_default":%d}`,
				x, lookup, x, x, 1+10*x, x+1, x, flag)
			if string(got) != want {
				t.Errorf("round %d, x=%d:\n got %s\nwant %s", round, x, got, want)
			}
		}
	}
}

// TestCachedDecisionsMatch: the embedded policy decides the same with the
// engine's caches as with OPA's own, over inputs of several verbs and
// stages evaluated one after the other (the static values kept by the
// first are reused by the others).
func TestCachedDecisionsMatch(t *testing.T) {
	ctx := context.Background()
	e, err := New(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	read := readInput(t)
	verb := readInput(t)
	verb["stage"] = "verb"
	over := readInput(t)
	over["agent"].(map[string]any)["usedTokens"] = 1 << 20
	unknown := readInput(t)
	unknown["verb"] = "no_such_verb"
	plan := plan200Input(t)
	planStage1 := plan200Input(t)
	planStage1["stage"] = "request"
	inputs := []struct {
		note  string
		doc   map[string]any
		query rego.PreparedEvalQuery
	}{
		{"read, first stage", read, e.stage1},
		{"read, whole decision", verb, e.query},
		{"read over budget", over, e.stage1},
		{"unknown verb", unknown, e.stage1},
		{"plan, first stage", planStage1, e.stage1},
		{"plan, verb stage", plan, e.query},
	}
	for round := range 2 {
		for _, in := range inputs {
			t.Run(fmt.Sprintf("%s/%d", in.note, round), func(t *testing.T) {
				parsed, err := ParseInput(in.doc)
				if err != nil {
					t.Fatal(err)
				}
				got, err := e.eval(ctx, in.query, parsed, nil)
				if err != nil {
					t.Fatal(err)
				}
				rs, err := in.query.Eval(ctx, rego.EvalParsedInput(parsed.value), astResult)
				if err != nil || len(rs) == 0 {
					t.Fatal(err)
				}
				want, err := resultJSON(rs[0].Expressions[0].Value.(ast.Value))
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(want) {
					t.Errorf("cached:\n%s\nOPA's caches:\n%s", got, want)
				}
			})
		}
	}
}

// TestMemberCache: an input member whose text was converted before is the
// same value; a changed member is converted again; the cache stays within
// its bound however many texts it is given.
func TestMemberCache(t *testing.T) {
	first, err := valueFromJSON([]byte(`{"same":{"pack":["a","b"]},"changes":{"used":1},"n":1}`))
	if err != nil {
		t.Fatal(err)
	}
	second, err := valueFromJSON([]byte(`{"same":{"pack":["a","b"]},"changes":{"used":2},"n":2}`))
	if err != nil {
		t.Fatal(err)
	}
	get := func(v ast.Value, key string) *ast.Term { return v.(ast.Object).Get(ast.StringTerm(key)) }
	if get(first, "same") != get(second, "same") {
		t.Errorf("an unchanged member was converted again")
	}
	if want := ast.MustParseTerm(`{"used":2}`); !get(second, "changes").Equal(want) {
		t.Errorf("changed member: %v, want %v", get(second, "changes"), want)
	}
	filler := strings.Repeat("x", 1000)
	for i := range 3 * memberCacheBytes / 1000 {
		doc := fmt.Sprintf(`{"m":{"k":%d,"s":%q}}`, i, filler)
		v, err := valueFromJSON([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if want := ast.MustParseTerm(doc); !ast.NewTerm(v).Equal(want) {
			t.Fatalf("document %d: %v", i, v)
		}
	}
	members.mu.Lock()
	defer members.mu.Unlock()
	size := 0
	for text := range members.prev {
		size += len(text)
	}
	if members.curBytes > memberCacheBytes || size > memberCacheBytes {
		t.Errorf("the cache holds %d and %d bytes of text, past its bound of %d a generation", members.curBytes, size, memberCacheBytes)
	}
}

// TestMemoFailsClosed: a rule whose bodies conflict is an error in every
// evaluation, not only the first (OPA puts the first body's value before it
// finds the conflict; the engine keeps values only of evaluations that
// succeeded).
func TestMemoFailsClosed(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	policy := "package t\n\nx := 1 if input.a == 1\n\nx := 2 if input.a == 1\n\nout := {\"x\": x}\n"
	if err := os.WriteFile(filepath.Join(dir, "t.rego"), []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := New(ctx, Options{BundlePath: dir, Query: "data.t.out"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		_, _, err := e.Evaluate(ctx, map[string]any{"a": 1}, nil)
		if ee, ok := err.(*Error); !ok || ee.Code != "eval" {
			t.Fatalf("evaluation %d: %v, want an eval error", i, err)
		}
	}
}

// TestEmbeddedRequestRulesKept: the embedded request rules that read only a
// few input members are kept between evaluations by those members (a rule
// that reads the whole input, object.get(input, ...) among them, is
// evaluated on every turn).
func TestEmbeddedRequestRulesKept(t *testing.T) {
	e, err := New(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		note, rule, kept string
	}{
		{note: "codemod-args", rule: `data.mcpc.rules.request["codemod-args"].report`, kept: "args.edits,config.codemods,verb"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			ref := ast.MustParseRef(tc.rule)
			r := e.static.find(ref, ref.Hash())
			if r == nil {
				t.Fatalf("%s is evaluated on every turn, want it kept by %s", tc.rule, tc.kept)
			}
			var names []string
			for _, m := range r.members {
				names = append(names, m.String())
			}
			if got := strings.Join(names, ","); got != tc.kept {
				t.Errorf("kept by %q, want %q", got, tc.kept)
			}
		})
	}
}
