package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/spf13/cobra"

	"github.com/mcpc/mcpc/internal/engine"
)

type policyParams struct {
	*rootParams
	dir        string
	output     string
	signingKey string
	signingAlg string
	keyID      string
	scope      string
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
	build.Flags().StringVar(&p.signingKey, "signing-key", "", "sign the bundle with this PEM private key (or HMAC secret) file, as opa build --signing-key; serve verifies it with --bundle-key")
	build.Flags().StringVar(&p.signingAlg, "signing-alg", "RS256", "signing algorithm (RS256, ES256, HS256, ...)")
	build.Flags().StringVar(&p.keyID, "signing-key-id", "default", "key id written in the signature (serve's --bundle-key-id / bundles.verification.keyId)")
	build.Flags().StringVar(&p.scope, "signing-scope", "", "scope claim written in the signature (bundles.verification.scope)")
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
	var sign *engine.Signing
	if p.signingKey != "" {
		// OPA's signer reads the file itself; a clear error first.
		if _, err := os.ReadFile(p.signingKey); err != nil {
			return fmt.Errorf("--signing-key: %w", err)
		}
		sign = &engine.Signing{Key: p.signingKey, KeyID: p.keyID, Algorithm: p.signingAlg, Scope: p.scope}
	}
	if err := os.MkdirAll(filepath.Dir(p.output), 0o755); err != nil {
		return err
	}
	f, err := os.Create(p.output)
	if err != nil {
		return err
	}
	modules, err := engine.WriteBundle(p.dir, f, sign)
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
	return writeJSON(cmd.OutOrStdout(), map[string]any{"bundle": p.output, "modules": modules, "version": eng.Version(), "signed": sign != nil})
}

// check compiles the policies strictly and prepares the decision, as serve
// would with --bundle DIR (or with the embedded policies).
func (p *policyParams) check(cmd *cobra.Command) error {
	eng, err := engine.New(cmd.Context(), engine.Options{BundlePath: p.dir, Strict: true, LocalDir: filepath.Join(p.workspace, ".ai", "policies")})
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
	if probs := ruleProblems(eng); len(probs) > 0 {
		_ = writeJSON(cmd.OutOrStdout(), map[string]any{"ok": false, "errors": probs})
		return fmt.Errorf("%d rule(s) are not documented as the contract requires", len(probs))
	}
	return writeJSON(cmd.OutOrStdout(), map[string]any{
		"ok": true, "version": eng.Version(), "source": eng.Source(), "rules": len(eng.Rules()),
	})
}

var denialCode = regexp.MustCompile(`^[A-Z][A-Z0-9_]{2,63}$`)

// ruleProblems finds rules a denial could not explain: a rule package
// without package METADATA, or whose METADATA lacks a title, a
// description, a well-formed custom.code, a remediation or a severity
// (repository-local rules included: the same checks).
func ruleProblems(eng *engine.Engine) engine.Errors {
	docs := eng.RuleDocs()
	var out engine.Errors
	for _, pkg := range eng.Rules() {
		doc, ok := docs[pkg]
		if !ok {
			out = append(out, &engine.Error{Code: "no_metadata", Location: pkg, Message: "the rule package has no package-scoped METADATA"})
			continue
		}
		code, _ := doc.Custom["code"].(string)
		remediation, _ := doc.Custom["remediation"].(string)
		severity, _ := doc.Custom["severity"].(string)
		switch {
		case doc.Title == "" || doc.Description == "":
			out = append(out, &engine.Error{Code: "undocumented", Location: pkg, Message: "METADATA needs a title and a description"})
		case !denialCode.MatchString(code):
			out = append(out, &engine.Error{Code: "undocumented_code", Location: pkg, Message: fmt.Sprintf("custom.code %q is not a stable code (A-Z, 0-9, _)", code)})
		case remediation == "":
			out = append(out, &engine.Error{Code: "undocumented", Location: pkg, Message: "custom.remediation is missing"})
		case severity == "":
			out = append(out, &engine.Error{Code: "undocumented", Location: pkg, Message: "custom.severity is missing"})
		}
	}
	return out
}
