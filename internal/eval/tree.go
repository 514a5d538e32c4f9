package eval

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// TreeEntry is one blob of a commit's tree.
type TreeEntry struct {
	Path string
	Blob string
}

// Tree is a materialised commit: the blobs written and those the git
// directory does not hold (a partial or shallow snapshot omits large
// blobs; the row is still scored on what is there).
type Tree struct {
	Entries []TreeEntry
	Missing []string
}

// manifestPath sits beside the tree, not inside it, so the indexer never
// sees it.
func manifestPath(dir string) string { return filepath.Clean(dir) + ".manifest.json" }

// MaterialiseTree makes dir hold exactly commit's tree. When dir holds a
// tree this function wrote before (its manifest says which blobs), only
// changed paths are rewritten and removed paths deleted: unchanged files
// keep their modification time, so an index reused across rows refreshes
// incrementally, as it would in a real workspace between two commits.
// Blobs missing from gitDir are skipped and listed, never an error.
func MaterialiseTree(ctx context.Context, gitDir, commit, dir string) (Tree, error) {
	var tree Tree
	entries, err := lsTree(ctx, gitDir, commit)
	if err != nil {
		return tree, err
	}
	old := map[string]string{}
	if data, err := os.ReadFile(manifestPath(dir)); err == nil {
		if json.Unmarshal(data, &old) != nil {
			old = map[string]string{}
		}
	}
	if len(old) == 0 {
		if err := os.RemoveAll(dir); err != nil {
			return tree, err
		}
	} else {
		// A stale manifest must not survive a failure halfway.
		os.Remove(manifestPath(dir))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return tree, err
	}
	want := map[string]string{}
	var todo []TreeEntry
	for _, e := range entries {
		want[e.Path] = e.Blob
		if old[e.Path] != e.Blob {
			todo = append(todo, e)
		}
	}
	for p := range old {
		if _, ok := want[p]; !ok {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil && !errors.Is(err, os.ErrNotExist) {
				return tree, err
			}
		}
	}
	missing, err := writeBlobs(ctx, gitDir, dir, todo)
	if err != nil {
		return tree, err
	}
	written := map[string]string{}
	isMissing := map[string]bool{}
	for _, m := range missing {
		isMissing[m] = true
		// An older version of the path must not stand in for the absent one.
		os.Remove(filepath.Join(dir, filepath.FromSlash(m)))
	}
	for _, e := range entries {
		if isMissing[e.Path] {
			continue
		}
		written[e.Path] = e.Blob
		tree.Entries = append(tree.Entries, e)
	}
	tree.Missing = missing
	data, err := json.Marshal(written)
	if err != nil {
		return tree, err
	}
	return tree, os.WriteFile(manifestPath(dir), data, 0o644)
}

// lsTree lists commit's regular files (submodules and symlinks are left
// out: neither is a file an agent edits).
func lsTree(ctx context.Context, gitDir, commit string) ([]TreeEntry, error) {
	cmd := exec.CommandContext(ctx, "git", "--git-dir="+gitDir, "ls-tree", "-r", "-z", "--full-tree", commit)
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("eval: git ls-tree %s: %w: %s", commit, err, stderr.String())
	}
	var entries []TreeEntry
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) != 3 || f[1] != "blob" || f[0] == "120000" {
			continue
		}
		entries = append(entries, TreeEntry{Path: string(p), Blob: f[2]})
	}
	return entries, nil
}

// writeBlobs streams todo's blobs through one `git cat-file --batch` and
// writes them under dir; it returns the paths whose blob is absent.
func writeBlobs(ctx context.Context, gitDir, dir string, todo []TreeEntry) ([]string, error) {
	if len(todo) == 0 {
		return nil, nil
	}
	cmd := exec.CommandContext(ctx, "git", "--git-dir="+gitDir, "cat-file", "--batch")
	// A partial clone would otherwise try to fetch each missing blob.
	cmd.Env = append(os.Environ(), "GIT_NO_LAZY_FETCH=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		w := bufio.NewWriter(stdin)
		for _, e := range todo {
			fmt.Fprintln(w, e.Blob)
		}
		w.Flush()
		stdin.Close()
	}()
	var missing []string
	r := bufio.NewReaderSize(stdout, 1<<16)
	var werr error
	for _, e := range todo {
		header, err := r.ReadString('\n')
		if err != nil {
			werr = fmt.Errorf("eval: git cat-file: %w: %s", err, stderr.String())
			break
		}
		f := strings.Fields(header)
		if len(f) >= 2 && f[1] == "missing" {
			missing = append(missing, e.Path)
			continue
		}
		if len(f) != 3 {
			werr = fmt.Errorf("eval: git cat-file: unexpected header %q", header)
			break
		}
		size, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			werr = fmt.Errorf("eval: git cat-file: %w", err)
			break
		}
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(e.Path)), io.LimitReader(r, size)); err != nil {
			werr = err
			break
		}
		if _, err := r.Discard(1); err != nil { // trailing newline
			werr = err
			break
		}
	}
	if werr != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, werr
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("eval: git cat-file: %w: %s", err, stderr.String())
	}
	return missing, nil
}

func writeFile(p string, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	// Remove first: a path that was a directory or a read-only file in the
	// previous tree must not make the write fail.
	os.Remove(p)
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
