package pathscope

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxSymlinkHops matches Linux's MAXSYMLINKS: past it the path is a loop.
const maxSymlinkHops = 40

// Resolver canonicalises agent-supplied paths against one worktree root and
// performs the only file I/O by agent-supplied path that mcpc allows.
// A Resolver is immutable and safe for concurrent use; build it with New.
type Resolver struct {
	root string // absolute, cleaned, symlinks resolved
}

// New returns a Resolver for the directory root. The root's own symlinks are
// resolved once here, so that "inside the worktree" is a plain prefix test.
func New(root string) (*Resolver, error) {
	if root == "" {
		return nil, fmt.Errorf("pathscope: empty worktree root")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("pathscope: worktree root: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("pathscope: worktree root: %w", err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("pathscope: worktree root: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("pathscope: worktree root %s is not a directory", real)
	}
	return &Resolver{root: real}, nil
}

// Root returns the absolute, symlink-free worktree root.
func (r *Resolver) Root() string { return r.root }

// Facts about one agent-supplied path. They become part of the policy input
// document; Go reports, Rego decides.
type Facts struct {
	Raw string `json:"raw"`
	// Canonical is repository-relative, '/'-separated and cleaned ("." is the
	// root); "" when the raw path cannot name anything below the root.
	Canonical string   `json:"canonical"`
	Valid     bool     `json:"valid"`    // Problems is empty
	Problems  []string `json:"problems"` // stable codes, sorted, never nil
	Exists    bool     `json:"exists"`
	Regular   bool     `json:"regular"` // a regular file, after in-tree symlinks
	Dir       bool     `json:"dir"`
	Size      int64    `json:"size"`  // bytes, for regular files only
	Links     uint64   `json:"links"` // st_nlink; >1 on a file means hard-linked
}

// Resolve gathers Facts about raw. It never fails: anything wrong with the
// path is a problem code. The filesystem is consulted only when a canonical
// form exists, and nothing about a target outside the worktree is reported
// (a symlink to /etc/shadow yields escapes_worktree, not its size).
func (r *Resolver) Resolve(raw string) Facts {
	return r.OnDisk(r.Lexical(raw))
}

// OnDisk completes facts from Lexical with what the filesystem says of the
// path: Resolve, for a caller that first judged the lexical facts (whether
// the path is one the agent may learn anything about).
func (r *Resolver) OnDisk(facts Facts) Facts {
	if facts.Canonical != "" {
		if disk := r.statFacts(facts.Canonical, &facts); len(disk) > 0 {
			facts.Problems = sortedProblems(append(facts.Problems, disk...))
			facts.Valid = false
		}
	}
	return facts
}

// Lexical gathers the Facts of raw that the string alone determines: its
// canonical form and syntactic problems, never anything on disk (Exists,
// Regular and the rest stay zero). It is what policy may learn about a path
// the agent may not read: the answer is the same whether a file is there,
// missing, a directory or a link.
func (r *Resolver) Lexical(raw string) Facts {
	syn := analyzeSyntax(raw)
	problems := syn.problems
	if syn.canonical != "" && r.tooLongBelowRoot(syn.canonical) {
		problems = append(problems, ProblemTooLong)
		syn.canonical = ""
	}
	facts := Facts{Raw: raw, Canonical: syn.canonical}
	if syn.canonical != "" {
		if isGitInternal(syn.canonical) {
			problems = append(problems, ProblemGitInternal)
		}
		if isStateDir(syn.canonical) {
			problems = append(problems, ProblemStateDir)
		}
	}
	facts.Problems = sortedProblems(problems)
	facts.Valid = len(facts.Problems) == 0
	return facts
}

// statFacts fills the filesystem fields of facts and returns the problems
// found on disk.
func (r *Resolver) statFacts(canonical string, facts *Facts) []string {
	var problems []string
	w := r.walk(canonical)
	if w.symlink {
		problems = append(problems, ProblemSymlink)
	}
	if w.escaped {
		return append(problems, ProblemEscapesWorktree)
	}
	// A symlink can lead into .git or the state dir under an innocent name.
	if rel, ok := r.relative(w.resolved); ok {
		if isGitInternal(rel) {
			problems = append(problems, ProblemGitInternal)
		}
		if isStateDir(rel) {
			problems = append(problems, ProblemStateDir)
		}
	}
	if w.info == nil {
		return append(problems, ProblemNotFound)
	}

	facts.Exists = true
	facts.Dir = w.info.IsDir()
	facts.Regular = w.info.Mode().IsRegular()
	facts.Links = linkCount(w.info)
	if facts.Regular {
		facts.Size = w.info.Size()
	} else {
		problems = append(problems, ProblemNotRegular)
	}
	if !facts.Dir && facts.Links > 1 {
		problems = append(problems, ProblemHardLinked)
	}
	return problems
}

// tooLongBelowRoot reports a canonical path that fits PATH_MAX on its own
// but not once joined to this root: no absolute path can name it, so the
// facts could not be gathered and the I/O refuses it too.
func (r *Resolver) tooLongBelowRoot(canonical string) bool {
	return len(r.root)+1+len(canonical) > maxPathBytes-1 // PATH_MAX counts the NUL
}

// walkResult is where a canonical path leads on disk.
type walkResult struct {
	resolved string      // absolute path after following every symlink (lexical past a missing part)
	info     fs.FileInfo // Lstat of resolved; nil when it does not exist or cannot be reached
	symlink  bool        // some component was a symlink
	escaped  bool        // some symlink resolved outside the root
}

// walk follows canonical from the root the way the kernel would, one
// component at a time, so that it can see every symlink on the way and
// where each one lands. Containment is judged when a symlink's expansion
// is complete: an absolute link to a file inside the root passes through
// "/" on the way and must not count as an escape.
func (r *Resolver) walk(canonical string) walkResult {
	var w walkResult
	cur := r.root
	pending := splitComponents(canonical)
	// checkpoints[i] is len(pending) once the i-th open symlink expansion
	// has been consumed; at that moment cur is where the link resolved.
	var checkpoints []int
	settle := func() {
		for len(checkpoints) > 0 && len(pending) <= checkpoints[len(checkpoints)-1] {
			checkpoints = checkpoints[:len(checkpoints)-1]
			if !r.contains(cur) {
				w.escaped = true
			}
		}
	}
	hops := 0
	// curInfo is cur's Lstat when the loop made it; the walk's last step
	// is usually that lstat, so the result need not repeat it.
	var curInfo fs.FileInfo
	// Stop at the first escape: nothing beyond it is reported, so there is
	// no reason to look at the outside filesystem.
	for settle(); len(pending) > 0 && !w.escaped; settle() {
		name := pending[0]
		pending = pending[1:]
		if name == ".." { // only from a symlink target: canonical paths have none
			cur, curInfo = filepath.Dir(cur), nil
			continue
		}
		next := filepath.Join(cur, name)
		info, err := os.Lstat(next)
		if err != nil {
			// Judge the rest lexically: a dangling link to /nonexistent is
			// still a link out of the tree.
			w.resolved = filepath.Join(append([]string{next}, pending...)...)
			if !r.contains(w.resolved) {
				w.escaped = true
			}
			return w
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			cur, curInfo = next, info
			continue
		}
		w.symlink = true
		hops++
		target, err := os.Readlink(next)
		if hops > maxSymlinkHops || err != nil {
			// A loop: nothing there. It still counts as leaving the tree
			// if the loop itself lies outside.
			w.resolved = next
			if !r.contains(cur) {
				w.escaped = true
			}
			return w
		}
		if filepath.IsAbs(target) {
			cur = "/"
		}
		curInfo = nil
		checkpoints = append(checkpoints, len(pending))
		pending = append(splitComponents(target), pending...)
	}
	w.resolved = cur
	if w.escaped {
		return w
	}
	w.info = curInfo
	if w.info == nil {
		if info, err := os.Lstat(cur); err == nil {
			w.info = info
		}
	}
	return w
}

// splitComponents splits a slash path into its names, dropping empty and "."
// components (they do not move the walk).
func splitComponents(p string) []string {
	var out []string
	for c := range strings.SplitSeq(filepath.ToSlash(p), "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// contains reports whether the absolute, clean path abs is the root or below it.
func (r *Resolver) contains(abs string) bool {
	_, ok := r.relative(abs)
	return ok
}

// relative returns abs relative to the root, '/'-separated ("." for the root).
func (r *Resolver) relative(abs string) (string, bool) {
	if abs == r.root {
		return ".", true
	}
	prefix := r.root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	if rest, ok := strings.CutPrefix(abs, prefix); ok {
		return filepath.ToSlash(rest), true
	}
	return "", false
}
