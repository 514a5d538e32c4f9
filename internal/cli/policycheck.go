package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/mcpc/mcpc/internal/engine"
	"github.com/mcpc/mcpc/policies"
	"github.com/mcpc/mcpc/schemas"
)

// codeProblems checks the denial codes across rules: a code that several
// rule packages declare is a warning unless the shared-codes table
// (policies/data/codes.json) says why it is shared, since one code with two
// meanings is one an agent cannot act on; a {"code": "X"} literal no rule's
// METADATA documents is an error, a denial nobody can look up.
func codeProblems(eng *engine.Engine) (errs, warnings engine.Errors) {
	byCode := map[string][]string{}
	for _, pkg := range eng.Rules() {
		if code, _ := eng.RuleDocs()[pkg].Custom["code"].(string); code != "" {
			byCode[code] = append(byCode[code], pkg)
		}
	}
	shared := sharedCodes(eng)
	codes := make([]string, 0, len(byCode))
	for code := range byCode {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	for _, code := range codes {
		if pkgs := byCode[code]; len(pkgs) > 1 && !shared[code] {
			warnings = append(warnings, &engine.Error{Code: "duplicate_code", Location: strings.Join(pkgs, ", "),
				Message: fmt.Sprintf("%s is declared by %d rule packages; if they mean the same thing, list it in sharedCodes (policies/data/codes.json) with why", code, len(pkgs))})
		}
	}
	for _, lit := range eng.CodeLiterals() {
		if _, ok := byCode[lit.Code]; !ok {
			errs = append(errs, &engine.Error{Code: "undocumented_code", Location: lit.Location,
				Message: fmt.Sprintf("a denial carries code %s, which no rule's METADATA documents", lit.Code)})
		}
	}
	return errs, warnings
}

// sharedCodes is the sharedCodes table wherever the loader put it.
func sharedCodes(eng *engine.Engine) map[string]bool {
	out := map[string]bool{}
	for _, at := range [][]string{{"data", "mcpc", "sharedCodes"}, {"mcpc", "sharedCodes"}} {
		if m, ok := eng.Data(at...).(map[string]any); ok {
			for code := range m {
				out[code] = true
			}
		}
	}
	return out
}

// dataProblems validates each policies/data table that has a schema
// (schemas/policy-data) against it. dir "" is the embedded policies.
func dataProblems(dir string) (engine.Errors, error) {
	fsys := fs.FS(policies.FS)
	if dir != "" {
		fsys = os.DirFS(dir)
	}
	names, err := fs.Glob(fsys, "data/*.json")
	if err != nil {
		return nil, err
	}
	var out engine.Errors
	for _, name := range names {
		schema, err := schemas.CompilePolicyData(path.Base(name))
		if err != nil {
			return nil, err
		}
		if schema == nil {
			continue
		}
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		var doc any
		if err := json.Unmarshal(raw, &doc); err != nil {
			out = append(out, &engine.Error{Code: "data_schema", Location: name, Message: err.Error()})
			continue
		}
		for _, p := range schemas.Check(schema, doc) {
			out = append(out, &engine.Error{Code: "data_schema", Location: name + ":" + p.Path, Message: p.Message})
		}
	}
	return out, nil
}

var errCheckFailed = errors.New("policy check failed")
