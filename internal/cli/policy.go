package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/loader"
	"github.com/spf13/cobra"

	"github.com/mcpc/mcpc/internal/engine"
)

type policyParams struct {
	*rootParams
	dir    string
	output string
}

func newPolicyCommand(root *rootParams) *cobra.Command {
	p := &policyParams{rootParams: root, dir: "policies", output: "bundles/mcpc.tar.gz"}
	cmd := &cobra.Command{Use: "policy", Short: "Build or check the Rego policy bundle"}
	build := &cobra.Command{
		Use:   "build",
		Short: "Write a standard OPA bundle (.tar.gz) from a policies directory",
		RunE:  func(cmd *cobra.Command, _ []string) error { return p.build(cmd) },
	}
	build.Flags().StringVar(&p.dir, "dir", p.dir, "policies directory (rego/ and data/)")
	build.Flags().StringVarP(&p.output, "output", "o", p.output, "bundle file to write")
	check := &cobra.Command{
		Use:   "check",
		Short: "Compile the policies strictly and prepare the decision query; JSON report",
		RunE:  func(cmd *cobra.Command, _ []string) error { return p.check(cmd) },
	}
	check.Flags().StringVar(&p.dir, "dir", "", "policies directory; default the embedded policies")
	cmd.AddCommand(build, check)
	return cmd
}

// loadDir loads a policies directory rooted like `opa test DIR`, leaving
// out tests.
func loadDir(dir string) (*bundle.Bundle, error) {
	res, err := loader.NewFileLoader().WithProcessAnnotation(true).Filtered([]string{dir}, func(_ string, info os.FileInfo, _ int) bool {
		return !info.IsDir() && (filepath.Ext(info.Name()) == ".go" || len(info.Name()) > 10 && info.Name()[len(info.Name())-10:] == "_test.rego")
	})
	if err != nil {
		return nil, err
	}
	b := &bundle.Bundle{Data: res.Documents, Manifest: bundle.Manifest{Roots: &[]string{""}}}
	for _, m := range res.Modules {
		rel, _ := filepath.Rel(dir, m.Name)
		b.Modules = append(b.Modules, bundle.ModuleFile{URL: filepath.ToSlash(rel), Path: filepath.ToSlash(rel), Raw: m.Raw, Parsed: m.Parsed})
	}
	return b, nil
}

// writeBundle writes b as a standard OPA bundle file.
func writeBundle(b *bundle.Bundle, path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := bundle.NewWriter(f).Write(*b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (p *policyParams) build(cmd *cobra.Command) error {
	b, err := loadDir(p.dir)
	if err != nil {
		return err
	}
	if err := writeBundle(b, p.output); err != nil {
		return err
	}
	// Prove the written bundle decides before reporting success.
	eng, err := engine.New(cmd.Context(), engine.Options{BundlePath: p.output})
	if err != nil {
		return fmt.Errorf("the bundle was written but does not load: %w", err)
	}
	return writeJSON(cmd.OutOrStdout(), map[string]any{"bundle": p.output, "modules": len(b.Modules), "version": eng.Version()})
}

func (p *policyParams) check(cmd *cobra.Command) error {
	report := map[string]any{"ok": true}
	if p.dir != "" {
		b, err := loadDir(p.dir)
		if err != nil {
			return err
		}
		mods := map[string]*ast.Module{}
		for _, m := range b.Modules {
			mods[m.Path] = m.Parsed
		}
		c := ast.NewCompiler().WithStrict(true)
		if c.Compile(mods); c.Failed() {
			report["ok"] = false
			report["errors"] = c.Errors
			_ = writeJSON(cmd.OutOrStdout(), report)
			return fmt.Errorf("%d policy errors", len(c.Errors))
		}
		report["modules"] = len(mods)
	}
	var opts engine.Options
	if p.dir != "" {
		tmp, err := os.CreateTemp("", "mcpc-bundle-*.tar.gz")
		if err != nil {
			return err
		}
		tmp.Close()
		defer os.Remove(tmp.Name())
		b, err := loadDir(p.dir)
		if err != nil {
			return err
		}
		if err := writeBundle(b, tmp.Name()); err != nil {
			return err
		}
		opts.BundlePath = tmp.Name()
	}
	eng, err := engine.New(cmd.Context(), opts)
	if err != nil {
		report["ok"] = false
		report["errors"] = []string{err.Error()}
		_ = writeJSON(cmd.OutOrStdout(), report)
		return err
	}
	report["version"] = eng.Version()
	report["source"] = eng.Source()
	report["rules"] = len(eng.RuleDocs())
	return writeJSON(cmd.OutOrStdout(), report)
}
