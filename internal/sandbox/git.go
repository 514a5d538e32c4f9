package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// gitBinds are the bwrap arguments that give git its repository folder
// when withGit (read-write, with config and hooks read-only: a hook that
// could rewrite them would run its code, or set core.fsmonitor, in mcpc's
// own git calls outside the sandbox), and the worktree paths the secret
// walk skips. A linked worktree's .git is a file naming its git folder
// outside the worktree; that folder and the common one are bound then.
func gitBinds(root string, withGit bool) (args []string, skip []string, err error) {
	dotGit := filepath.Join(root, ".git")
	info, err := os.Lstat(dotGit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	skip = []string{".git"}
	if !withGit {
		return nil, skip, nil
	}
	var dirs []string
	switch {
	case info.IsDir():
		dirs = []string{dotGit}
	case info.Mode().IsRegular():
		dirs, err = linkedGitDirs(root, dotGit)
		if err != nil {
			return nil, nil, err
		}
	default:
		return nil, nil, fmt.Errorf("%s is neither a folder nor a file", dotGit)
	}
	for _, d := range dirs {
		args = append(args, "--bind", d, d)
	}
	for _, d := range dirs {
		for _, name := range []string{"config", "hooks", "config.worktree"} {
			p := filepath.Join(d, name)
			if _, err := os.Lstat(p); err == nil {
				args = append(args, "--ro-bind", p, p)
			}
		}
	}
	return args, skip, nil
}

// linkedGitDirs reads a linked worktree's .git file ("gitdir: PATH") and
// the git folder's commondir.
func linkedGitDirs(root, dotGit string) ([]string, error) {
	raw, err := os.ReadFile(dotGit)
	if err != nil {
		return nil, err
	}
	line, ok := strings.CutPrefix(strings.TrimSpace(string(raw)), "gitdir:")
	if !ok {
		return nil, fmt.Errorf("%s does not name a git folder", dotGit)
	}
	gitDir := strings.TrimSpace(line)
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(root, gitDir)
	}
	dirs := []string{filepath.Clean(gitDir)}
	if common, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(common))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		if c = filepath.Clean(c); c != dirs[0] {
			dirs = append(dirs, c)
		}
	}
	return dirs, nil
}
