package hook

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpc/mcpc/internal/pathscope"
)

// maxGlobTargets bounds the files one pattern word expands to: a pattern
// matching more is judged as a read of the pattern itself, which no pack
// holds (`cat **/*` names the whole tree).
const maxGlobTargets = 256

// shellTargets are the files a shell command names: arguments that are
// existing files or that point outside the worktree are reads, other
// arguments are named (each with its segment, for rules that know which
// commands write), < inputs are reads, > and >> targets are writes. What
// the shell would make of a word counts, not its text: a pattern names
// the files it matches (`cat src/*`), a leading ~ a home directory, and
// the value of an --option=value a file as an operand does
// (`grep --file=/etc/shadow`).
func shellTargets(res *pathscope.Resolver, cwd string, sc *shellCommand) []target {
	out := []target{}
	for i, seg := range sc.Segments {
		for j, arg := range seg.Argv {
			if j == 0 {
				continue
			}
			var word token
			if j < len(seg.words) {
				word = seg.words[j]
			}
			if strings.HasPrefix(arg, "-") {
				_, value, ok := strings.Cut(arg, "=")
				if !ok || value == "" {
					continue
				}
				arg, word.tilde = value, strings.HasPrefix(value, "~")
			}
			at := fmt.Sprintf("hook.shell.segments[%d].argv[%d]", i, j)
			files, many := wordFiles(res, cwd, arg, word)
			for _, f := range files {
				access := operandAccess(f)
				if many {
					access = "read"
				}
				out = append(out, target{Access: access, At: at, Path: f, Segment: &i, Arg: &j})
			}
		}
		for j, in := range seg.Inputs {
			out = append(out, target{Access: "read", At: fmt.Sprintf("hook.shell.segments[%d].inputs[%d]", i, j), Path: res.Resolve(relativeTo(res.Root(), cwd, in))})
		}
		for j, w := range seg.Redirects {
			out = append(out, target{Access: "write", At: fmt.Sprintf("hook.shell.segments[%d].redirects[%d]", i, j), Path: res.Resolve(relativeTo(res.Root(), cwd, w))})
		}
	}
	return out
}

// wordFiles are the paths one argument word names, resolved: a home
// directory's path as written (absolute to pathscope, so outside), a
// pattern's matches as the shell would list them, or the pattern itself
// when it matches nothing (the shell passes it on) or more than
// maxGlobTargets files (many: a read of them all).
func wordFiles(res *pathscope.Resolver, cwd, arg string, word token) (files []pathscope.Facts, many bool) {
	if word.tilde {
		return []pathscope.Facts{res.Resolve(arg)}, false
	}
	p := relativeTo(res.Root(), cwd, arg)
	// A pattern outside the worktree is read outside it whatever it
	// matches, and is not listed: `/*/*/*/*` would walk /proc.
	if word.glob && !filepath.IsAbs(p) {
		matches, err := filepath.Glob(filepath.Join(res.Root(), filepath.FromSlash(p)))
		if err == nil && len(matches) > 0 && len(matches) <= maxGlobTargets {
			files := make([]pathscope.Facts, 0, len(matches))
			for _, m := range matches {
				files = append(files, res.Resolve(relativeTo(res.Root(), "", m)))
			}
			return files, false
		}
		many = len(matches) > maxGlobTargets
	}
	return []pathscope.Facts{res.Resolve(p)}, many
}

// operandAccess is how a command's operand is judged: an existing file
// or a path outside the worktree (absolute, climbing above the root, a
// home directory, a link out) is read, anything else only named.
func operandAccess(f pathscope.Facts) string {
	outside := f.Canonical == "" && (slices.Contains(f.Problems, pathscope.ProblemAbsolute) || slices.Contains(f.Problems, pathscope.ProblemTraversal)) ||
		slices.Contains(f.Problems, pathscope.ProblemEscapesWorktree)
	if (f.Exists && f.Regular) || outside {
		return "read"
	}
	return "named"
}
