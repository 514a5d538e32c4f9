package patch

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/policies"
)

// Input is what a codemod works on.
type Input struct {
	File    string         // repository-relative; the extension picks the grammar
	Content string         // the file's current content
	Params  map[string]any // validated against the codemod's Spec
	// Rules looks up a tag's MigrationRule; nil when the caller has none.
	Rules MigrationRuleLookup
	// MaxOutputBytes bounds the result; a codemod refuses before it builds
	// anything larger. 0 is DefaultMaxOutputBytes.
	MaxOutputBytes int
}

// Codemod rewrites content. It must leave every byte its syntax does not
// name as it was, finish on any input, and stop when ctx ends.
type Codemod func(ctx context.Context, in Input) (string, error)

// MigrationRule is the part of a graph MigrationRule a template codemod
// uses (seed 000 section 11.2).
type MigrationRule struct {
	FromTag      string
	ToTag        string
	PropMappings map[string]string
}

// MigrationRuleLookup finds the MigrationRule of a fromTag. It is the seam
// through which rewrite_template_tag takes propMappings from the graph when
// a request gives none.
type MigrationRuleLookup func(fromTag string) (MigrationRule, bool)

// Spec is a codemod's entry in policies/data/codemods.json: what the agent
// is told and what policy checks a request's params against. Go checks the
// same table again before running a codemod.
type Spec struct {
	Description string               `json:"description"`
	Extensions  []string             `json:"extensions,omitempty"`
	Params      map[string]ParamSpec `json:"params"`
	// RequiredOneOf: from each group at least one param is given.
	RequiredOneOf [][]string `json:"requiredOneOf,omitempty"`
	// RequiredTogether: from each group all params or none are given.
	RequiredTogether [][]string `json:"requiredTogether,omitempty"`
	// Steps are a configured codemod's built-in codemods, run in order.
	Steps []config.CodemodStep `json:"steps,omitempty"`
	// Language and Query are a configured query codemod's.
	Language string `json:"language,omitempty"`
	Query    string `json:"query,omitempty"`
	custom   bool
}

// ParamSpec is one param's type and limits.
type ParamSpec struct {
	Type         string `json:"type"` // string or object (of strings)
	Required     bool   `json:"required,omitempty"`
	Pattern      string `json:"pattern,omitempty"`
	MaxLength    int    `json:"maxLength,omitempty"`
	KeyPattern   string `json:"keyPattern,omitempty"`
	ValuePattern string `json:"valuePattern,omitempty"`
	Description  string `json:"description,omitempty"`
}

// Registry holds the codemods one controller offers: the built-ins and the
// ones its config declares.
type Registry struct {
	specs map[string]Spec
	run   map[string]Codemod
	rules MigrationRuleLookup
	re    map[string]*regexp.Regexp
}

// spliceCodemod is a built-in codemod: it names the byte ranges it
// replaces, and nothing else changes (applySplices).
type spliceCodemod func(ctx context.Context, in Input) ([]splice, error)

var builtinSplices = map[string]spliceCodemod{
	"rename_identifier_in_file": renameIdentifier,
	"update_import_specifier":   updateImportSpecifier,
	"update_route_path_literal": updateRoutePathLiteral,
	"rewrite_template_tag":      rewriteTemplateTag,
}

var builtinFuncs = func() map[string]Codemod {
	m := map[string]Codemod{}
	for name, f := range builtinSplices {
		m[name] = func(ctx context.Context, in Input) (string, error) {
			sp, err := f(ctx, in)
			if err != nil {
				return "", err
			}
			if err := checkSize(in, sp); err != nil {
				return "", err
			}
			return applySplices(in.Content, sp)
		}
	}
	return m
}()

var builtins = sync.OnceValues(func() (*Registry, error) {
	raw, err := policies.FS.ReadFile("data/codemods.json")
	if err != nil {
		return nil, err
	}
	var doc struct {
		Mcpc struct {
			Codemods map[string]Spec `json:"codemods"`
		} `json:"mcpc"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("policies/data/codemods.json: %w", err)
	}
	r := &Registry{specs: doc.Mcpc.Codemods, run: builtinFuncs, re: map[string]*regexp.Regexp{}}
	for name := range builtinFuncs {
		if _, ok := r.specs[name]; !ok {
			return nil, fmt.Errorf("policies/data/codemods.json has no entry for built-in codemod %s", name)
		}
	}
	for name, s := range r.specs {
		if builtinFuncs[name] == nil {
			return nil, fmt.Errorf("policies/data/codemods.json lists %s, which is not a built-in codemod", name)
		}
		if err := r.compile(s); err != nil {
			return nil, fmt.Errorf("codemod %s: %w", name, err)
		}
	}
	return r, nil
})

// Builtins is the registry of built-in codemods. The table is embedded, so
// a failure to read it is a build defect and panics.
func Builtins() *Registry {
	r, err := builtins()
	if err != nil {
		panic(err)
	}
	return r
}

var customName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// NewRegistry adds the codemods declared in config (codemods.custom) to the
// built-ins. A custom codemod is a named sequence of built-in codemods with
// fixed params or a tree-sitter query with a replacement template; the
// agent gives it no params. Every step and query is checked here, so a bad
// declaration is an error at start-up, not at a patch.
func NewRegistry(custom map[string]config.CustomCodemod) (*Registry, error) {
	base := Builtins()
	r := &Registry{specs: maps.Clone(base.specs), run: maps.Clone(base.run), re: base.re}
	for _, name := range slices.Sorted(maps.Keys(custom)) {
		cm := custom[name]
		where := "codemods.custom." + name
		switch {
		case !customName.MatchString(name):
			return nil, fmt.Errorf("%s: a codemod name is lower case letters, digits and _", where)
		case base.specs[name].Description != "":
			return nil, fmt.Errorf("%s: the name of a built-in codemod", where)
		case cm.Query != "":
			if len(cm.Steps) > 0 {
				return nil, fmt.Errorf("%s: steps or a query, not both", where)
			}
			qc, err := newQueryCodemod(cm)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			r.specs[name] = Spec{Description: cm.Description, Params: map[string]ParamSpec{}, Extensions: extensionsOf[cm.Language],
				Language: cm.Language, Query: cm.Query, custom: true}
			r.run[name] = qc.run
			continue
		case len(cm.Steps) == 0:
			return nil, fmt.Errorf("%s: steps is empty", where)
		}
		for i, step := range cm.Steps {
			spec, ok := base.specs[step.Codemod]
			if !ok {
				return nil, fmt.Errorf("%s.steps[%d]: %q is not a built-in codemod", where, i, step.Codemod)
			}
			if err := base.checkParams(spec, step.Params); err != nil {
				return nil, fmt.Errorf("%s.steps[%d] (%s): %s", where, i, step.Codemod, err.Message)
			}
		}
		steps := slices.Clone(cm.Steps)
		r.specs[name] = Spec{Description: cm.Description, Params: map[string]ParamSpec{}, Steps: steps, custom: true}
		r.run[name] = r.sequence(steps)
	}
	return r, nil
}

// WithRules returns a copy of r whose template codemods look up
// MigrationRules with lookup.
func (r *Registry) WithRules(lookup MigrationRuleLookup) *Registry {
	c := *r
	c.rules = lookup
	return &c
}

// Specs are the codemods' table entries, for the agent and for policy.
func (r *Registry) Specs() map[string]Spec { return r.specs }

// Custom are the entries of the codemods declared in config.
func (r *Registry) Custom() map[string]Spec {
	out := map[string]Spec{}
	for name, s := range r.specs {
		if s.custom {
			out[name] = s
		}
	}
	return out
}

func (r *Registry) sequence(steps []config.CodemodStep) Codemod {
	return func(ctx context.Context, in Input) (string, error) {
		content := in.Content
		for i, step := range steps {
			out, err := r.run[step.Codemod](ctx, Input{File: in.File, Content: content, Params: step.Params, Rules: in.Rules, MaxOutputBytes: in.MaxOutputBytes})
			if err != nil {
				kind, msg := kindOf(err)
				return "", errorf(kind, "step %d (%s): %s", i+1, step.Codemod, msg)
			}
			content = out
		}
		return content, nil
	}
}

// Run checks name and params against the table and runs the codemod.
func (r *Registry) Run(ctx context.Context, name string, in Input) (string, error) {
	spec, ok := r.specs[name]
	if !ok {
		return "", errorf(KindUnknownCodemod, "unknown codemod %q (one of %s)", name, strings.Join(slices.Sorted(maps.Keys(r.specs)), ", "))
	}
	if err := r.checkParams(spec, in.Params); err != nil {
		return "", err
	}
	if len(spec.Extensions) > 0 && !slices.Contains(spec.Extensions, strings.ToLower(path.Ext(in.File))) {
		return "", errorf(KindUnsupported, "%s works on %s files, not %q", name, strings.Join(spec.Extensions, " "), path.Base(in.File))
	}
	in.Rules = r.rules
	return r.run[name](ctx, in)
}

func (r *Registry) compile(s Spec) error {
	for _, p := range s.Params {
		for _, pat := range []string{p.Pattern, p.KeyPattern, p.ValuePattern} {
			if pat == "" || r.re[pat] != nil {
				continue
			}
			re, err := regexp.Compile(pat)
			if err != nil {
				return err
			}
			r.re[pat] = re
		}
	}
	return nil
}

// checkParams is the table's check; policy makes the same one first.
func (r *Registry) checkParams(s Spec, params map[string]any) *Error {
	for _, name := range slices.Sorted(maps.Keys(params)) {
		p, ok := s.Params[name]
		if !ok {
			return errorf(KindInvalidParams, "unknown param %q", name)
		}
		if msg := r.checkParam(p, params[name]); msg != "" {
			return errorf(KindInvalidParams, "param %s %s", name, msg)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Params)) {
		if _, given := params[name]; s.Params[name].Required && !given {
			return errorf(KindInvalidParams, "param %s is required", name)
		}
	}
	for _, group := range s.RequiredOneOf {
		if !slices.ContainsFunc(group, func(n string) bool { _, ok := params[n]; return ok }) {
			return errorf(KindInvalidParams, "one of the params %s is required", strings.Join(group, ", "))
		}
	}
	for _, group := range s.RequiredTogether {
		n := 0
		for _, name := range group {
			if _, ok := params[name]; ok {
				n++
			}
		}
		if n != 0 && n != len(group) {
			return errorf(KindInvalidParams, "the params %s go together", strings.Join(group, ", "))
		}
	}
	return nil
}

func (r *Registry) checkParam(p ParamSpec, v any) string {
	switch p.Type {
	case "string":
		s, ok := v.(string)
		if !ok {
			return "must be a string"
		}
		if p.MaxLength > 0 && utf8.RuneCountInString(s) > p.MaxLength {
			return fmt.Sprintf("is longer than %d characters", p.MaxLength)
		}
		if p.Pattern != "" && !r.re[p.Pattern].MatchString(s) {
			return fmt.Sprintf("must match %s", p.Pattern)
		}
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return "must be an object"
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			s, ok := m[k].(string)
			switch {
			case !ok:
				return fmt.Sprintf("entry %q must be a string", k)
			case p.KeyPattern != "" && !r.re[p.KeyPattern].MatchString(k):
				return fmt.Sprintf("key %q must match %s", k, p.KeyPattern)
			case p.ValuePattern != "" && !r.re[p.ValuePattern].MatchString(s):
				return fmt.Sprintf("entry %q must match %s", k, p.ValuePattern)
			}
		}
	}
	return ""
}

// checkSize refuses splices whose result would pass the input's limit,
// before a byte of it is allocated: a rename to a long name of a one-letter
// identifier could otherwise ask for gigabytes.
func checkSize(in Input, sp []splice) error {
	limit := in.MaxOutputBytes
	if limit <= 0 {
		limit = DefaultMaxOutputBytes
	}
	size := len(in.Content)
	for _, s := range sp {
		size += len(s.with) - int(s.end-s.start)
	}
	if size > limit {
		return errorf(KindTooLarge, "the result would be %d bytes, over the limit of %d", size, limit)
	}
	return nil
}
