package engine

import (
	"path"
	"strings"

	"github.com/open-policy-agent/opa/v1/bundle"

	"github.com/mcpc/mcpc/policies"
)

// readEmbeddedPackages reads, for a query that needs only some packages of
// the embedded policies (Options.Packages: mcpc hook, a process per
// event), only the Rego files of those packages' directories: parsing
// every module cost a cold hook process more than half its CPU. ok is false
// when another bundle is configured or a package has no plain directory.
// The engine's Version then hashes only what it read; such a query never
// checks a plan's policy version.
func readEmbeddedPackages(opts Options) (b *bundle.Bundle, ok bool, err error) {
	if opts.BundlePath != "" || len(opts.BundlePaths) > 0 || opts.Verify != nil {
		return nil, false, nil
	}
	dirs := packageDirs(opts.Packages)
	if dirs == nil {
		return nil, false, nil
	}
	b, err = loadFSDirs(policies.FS, dirs)
	if err == nil {
		b.Manifest.Roots = &[]string{DefaultRoots[0], DefaultRoots[1]}
	}
	return b, true, err
}

// packageDirs maps packages (data.mcpc.rules.hook) to the directories of
// the embedded tree that hold them (rego/mcpc/rules/hook), the layout
// Regal's directory-package-mismatch rule keeps; nil when there are no
// packages or one is not a plain dotted path.
func packageDirs(pkgs []string) []string {
	if len(pkgs) == 0 {
		return nil
	}
	out := make([]string, 0, len(pkgs))
	for _, p := range pkgs {
		p = strings.TrimPrefix(p, "data.")
		if p == "" || strings.ContainsAny(p, `[]"/ `) {
			return nil
		}
		out = append(out, path.Join("rego", strings.ReplaceAll(p, ".", "/")))
	}
	return out
}

// underDirs says whether file (a path of the embedded tree) is in one of
// dirs or below one; every file is when dirs is nil.
func underDirs(file string, dirs []string) bool {
	if dirs == nil {
		return true
	}
	file = strings.TrimPrefix(path.Clean("/"+file), "/")
	for _, d := range dirs {
		if file == d || strings.HasPrefix(file, d+"/") {
			return true
		}
	}
	return false
}
