package engine

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
)

// LocalPackagePrefix is the only package root repository-local Rego may
// use: mcpc.main collects data.mcpc.local.rules[<category>][<rule>].report
// as extra violations of the verb's categories. Rules there can add
// denials; they cannot define mcpc.rules, mcpc.lib or mcpc.main, so they
// never lift or change a default decision.
const LocalPackagePrefix = "mcpc.local."

// maxLocalBytes bounds one repository-local module.
const maxLocalBytes = 1 << 20

// localModules reads dir/**/*.rego (tests left out) as modules of the
// local extension point. A module outside mcpc.local, one that does not
// parse, a link or an oversized file fails the load (fail closed): with
// the embedded policies serve refuses to start and says why; with a bundle
// every turn is denied until it loads. It never runs without a rule its
// repository declared.
func localModules(dir string) ([]bundle.ModuleFile, error) {
	if dir == "" {
		return nil, nil
	}
	if _, err := os.Lstat(dir); os.IsNotExist(err) {
		return nil, nil
	}
	var out []bundle.ModuleFile
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s: repository-local policy may not be a link", p)
		}
		if d.IsDir() || filepath.Ext(p) != ".rego" || strings.HasSuffix(p, "_test.rego") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > maxLocalBytes {
			return fmt.Errorf("%s: over %d bytes", p, maxLocalBytes)
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		name := "local/" + filepath.ToSlash(rel)
		m, err := ast.ParseModuleWithOpts(name, string(raw), ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1})
		if err != nil {
			return err
		}
		pkg := strings.TrimPrefix(m.Package.Path.String(), "data.")
		if !strings.HasPrefix(pkg, LocalPackagePrefix) {
			return fmt.Errorf("%s: package %s is outside %s (repository-local rules may only add violations)", name, pkg, strings.TrimSuffix(LocalPackagePrefix, "."))
		}
		out = append(out, bundle.ModuleFile{URL: name, Path: name, Raw: raw, Parsed: m})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
}
