package cli

import (
	"fmt"
	"os"
	"path/filepath"

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

func (p *policyParams) build(cmd *cobra.Command) error {
	if err := os.MkdirAll(filepath.Dir(p.output), 0o755); err != nil {
		return err
	}
	f, err := os.Create(p.output)
	if err != nil {
		return err
	}
	modules, err := engine.WriteBundle(p.dir, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	// Prove the written bundle decides before reporting success.
	eng, err := engine.New(cmd.Context(), engine.Options{BundlePath: p.output})
	if err != nil {
		return fmt.Errorf("the bundle was written but does not load: %w", err)
	}
	return writeJSON(cmd.OutOrStdout(), map[string]any{"bundle": p.output, "modules": modules, "version": eng.Version()})
}

// check compiles the policies strictly and prepares the decision, as serve
// would with --bundle DIR (or with the embedded policies).
func (p *policyParams) check(cmd *cobra.Command) error {
	eng, err := engine.New(cmd.Context(), engine.Options{BundlePath: p.dir, Strict: true})
	if err != nil {
		// New reports a failed compile as Errors, anything else as one *Error.
		errs, ok := err.(engine.Errors)
		if !ok {
			e, isOne := err.(*engine.Error)
			if !isOne {
				e = &engine.Error{Code: "load", Location: p.dir, Message: err.Error()}
			}
			errs = engine.Errors{e}
		}
		_ = writeJSON(cmd.OutOrStdout(), map[string]any{"ok": false, "errors": errs})
		return err
	}
	return writeJSON(cmd.OutOrStdout(), map[string]any{
		"ok": true, "version": eng.Version(), "source": eng.Source(), "rules": len(eng.RuleDocs()),
	})
}
