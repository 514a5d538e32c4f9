//go:build unix

package pathscope

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// kind is what a case's path should turn out to be on disk.
type kind int

const (
	absent  kind = iota // Exists false
	file                // a regular file
	dir                 // a directory
	special             // exists, neither (FIFO, socket)
)

type resolveCase struct {
	note      string
	raw       string // "$ROOT" is replaced by the worktree's absolute path
	canonical string
	problems  []string
	kind      kind
}

// p is shorthand for a problem list.
func p(codes ...string) []string { return codes }

const (
	empty       = ProblemEmpty
	absolute    = ProblemAbsolute
	backslash   = ProblemBackslash
	nul         = ProblemNUL
	control     = ProblemControlChar
	percent     = ProblemPercentEscape
	traversal   = ProblemTraversal
	escapes     = ProblemEscapesWorktree
	symlink     = ProblemSymlink
	gitInternal = ProblemGitInternal
	state       = ProblemStateDir
	notFound    = ProblemNotFound
	notRegular  = ProblemNotRegular
	hardLinked  = ProblemHardLinked
	tooLong     = ProblemTooLong
	badUTF8     = ProblemInvalidUTF8
	format      = ProblemUnicodeFormat
)

var resolveCases = []resolveCase{
	// Ordinary paths and harmless spellings of them.
	{"plain file", "src/app.ts", "src/app.ts", p(), file},
	{"nested file", "src/util/strings.ts", "src/util/strings.ts", p(), file},
	{"top-level file", "README.md", "README.md", p(), file},
	{"empty file is still a regular file", "empty.txt", "empty.txt", p(), file},
	{"leading ./ is cleaned", "./src/app.ts", "src/app.ts", p(), file},
	{"dot-dot that stays inside is cleaned, not a problem", "src/../src/app.ts", "src/app.ts", p(), file},
	{"dot-dot out of a subdirectory", "src/dir/../app.ts", "src/app.ts", p(), file},
	{"dot-dot after a missing directory is cleaned lexically first", "nope/../README.md", "README.md", p(), file},
	{"double slash", "src//app.ts", "src/app.ts", p(), file},
	{"single dot segment", "src/./app.ts", "src/app.ts", p(), file},
	{"many slashes and dots", ".//src/.//./app.ts", "src/app.ts", p(), file},
	{"trailing slash on a file is cleaned away", "src/app.ts/", "src/app.ts", p(), file},
	{"directory", "src", "src", p(notRegular), dir},
	{"directory with trailing slash", "src/", "src", p(notRegular), dir},
	{"dot is the root", ".", ".", p(notRegular), dir},
	{"dot slash is the root", "./", ".", p(notRegular), dir},
	{"dots and slashes are the root", ".//./", ".", p(notRegular), dir},
	{"missing file", "src/nope.ts", "src/nope.ts", p(notFound), absent},
	{"missing directories", "nope/deep/x.ts", "nope/deep/x.ts", p(notFound), absent},
	{"below a regular file", "src/app.ts/x", "src/app.ts/x", p(notFound), absent},
	{"space in a name", "my file.ts", "my file.ts", p(), file},
	{"three dots is an ordinary name", "...", "...", p(), file},
	{"three dots with trailing slash", ".../", "...", p(), file},
	{"literal percent name exists but is still reported", "file%20name.txt", "file%20name.txt", p(percent), file},
	{"NFC name exists", "caf\u00e9.ts", "caf\u00e9.ts", p(), file},
	{"NFD spelling is not normalised to NFC", "cafe\u0301.ts", "cafe\u0301.ts", p(notFound), absent},
	{"dotfile that is not .git", ".gitignore", ".gitignore", p(), file},

	// Empty.
	{"empty string", "", "", p(empty), absent},

	// Traversal in every encoding. Only real ".." segments climb; encoded
	// and lookalike forms are literal names that do not exist.
	{"parent of root", "..", "", p(traversal), absent},
	{"parent of root with slash", "../", "", p(traversal), absent},
	{"classic", "../etc/passwd", "", p(traversal), absent},
	{"climbs after going down", "src/../../etc", "", p(traversal), absent},
	{"deep climb", "src/../../../../../../etc/passwd", "", p(traversal), absent},
	{"dot then dot-dot", "./../x", "", p(traversal), absent},
	{"down two up three", "a/b/../../../x", "", p(traversal), absent},
	{"dot-dot with doubled slashes", "..//..//etc", "", p(traversal), absent},
	{"climb back into the root by name", "../repo/src/app.ts", "", p(traversal), absent},
	{"backslash traversal", `..\..\etc\passwd`, "", p(backslash, traversal), absent},
	{"backslash dot-dot that stays inside", `src\..\app.ts`, "", p(backslash), absent},
	{"mixed separators", `../src\app.ts`, "", p(backslash, traversal), absent},
	{"percent-encoded dots and slash", "%2e%2e%2fetc%2fpasswd", "%2e%2e%2fetc%2fpasswd", p(notFound, percent), absent},
	{"percent-encoded dots as segments", "%2e%2e/%2e%2e/etc/passwd", "%2e%2e/%2e%2e/etc/passwd", p(notFound, percent), absent},
	{"upper-case percent encoding", "%2E%2E%2F", "%2E%2E%2F", p(notFound, percent), absent},
	{"double percent encoding", "%252e%252e%252f", "%252e%252e%252f", p(notFound, percent), absent},
	{"dot-dot with encoded slash", "..%2f..%2fetc%2fpasswd", "..%2f..%2fetc%2fpasswd", p(notFound, percent), absent},
	{"encoded backslash", "..%5c..%5cetc", "..%5c..%5cetc", p(notFound, percent), absent},
	{"overlong UTF-8 dot, percent form", "%c0%ae%c0%ae/", "%c0%ae%c0%ae", p(notFound, percent), absent},
	{"encoded NUL", "src/app.ts%00.png", "src/app.ts%00.png", p(notFound, percent), absent},
	{"IIS %u form is not a hex pair", "%u002e%u002e/x", "%u002e%u002e/x", p(notFound), absent},
	{"lone percent", "100%", "100%", p(notFound), absent},
	{"percent with one hex digit", "a%2", "a%2", p(notFound), absent},
	{"four dots", "....//....//etc/passwd", "..../..../etc/passwd", p(notFound), absent},
	{"three dots then name", ".../x", ".../x", p(notFound), absent},
	{"Tomcat path parameter", "..;/etc/passwd", "..;/etc/passwd", p(notFound), absent},
	{"overlong UTF-8 dots, raw bytes", "\xc0\xae\xc0\xae/etc/passwd", "", p(badUTF8), absent},
	{"overlong UTF-8 slash, raw bytes", "..\xc0\xafetc", "", p(badUTF8), absent},
	{"three-byte overlong dot", "\xe0\x80\xae\xe0\x80\xae/x", "", p(badUTF8), absent},
	{"lone continuation byte", "src/\x80app.ts", "", p(badUTF8), absent},
	{"truncated sequence", "src/app\xe2\x80", "", p(badUTF8), absent},
	{"UTF-16 surrogate encoded in UTF-8", "src/\xed\xa0\x80.ts", "", p(badUTF8), absent},
	{"fullwidth dots and solidus", "\uff0e\uff0e\uff0fetc\uff0fpasswd", "\uff0e\uff0e\uff0fetc\uff0fpasswd", p(notFound), absent},
	{"fullwidth dot mixed with ASCII dot", "\uff0e./x", "\uff0e./x", p(notFound), absent},
	{"fullwidth solidus inside a name", "src\uff0fapp.ts", "src\uff0fapp.ts", p(notFound), absent},
	{"division slash U+2215", "..\u2215..\u2215etc\u2215passwd", "..\u2215..\u2215etc\u2215passwd", p(notFound), absent},
	{"fraction slash U+2044", "..\u2044etc", "..\u2044etc", p(notFound), absent},
	{"ideographic full stop", "\u3002\u3002/etc/passwd", "\u3002\u3002/etc/passwd", p(notFound), absent},
	{"one-dot leader U+2024", "\u2024\u2024/x", "\u2024\u2024/x", p(notFound), absent},
	{"zero-width space hides a dot-dot", "src/..\u200b/app.ts", "src/..\u200b/app.ts", p(notFound, format), absent},

	// Lookalikes and case: never normalised, so they simply do not exist.
	{"Cyrillic dze for s", "\u0455rc/app.ts", "\u0455rc/app.ts", p(notFound), absent},
	{"Cyrillic a in a file name", "src/\u0430pp.ts", "src/\u0430pp.ts", p(notFound), absent},
	{"Greek omicron", "src/app.ts\u03bf", "src/app.ts\u03bf", p(notFound), absent},
	{"case variant of directory and file", "SRC/App.ts", "SRC/App.ts", p(notFound), absent},
	{"upper-case file", "src/APP.TS", "src/APP.TS", p(notFound), absent},
	{"capitalised directory", "Src/app.ts", "Src/app.ts", p(notFound), absent},
	{"upper-case extension", "README.MD", "README.MD", p(notFound), absent},
	{"no-break space", "my\u00a0file.ts", "my\u00a0file.ts", p(notFound), absent},

	// Invisible format characters.
	{"zero-width joiner", "src/\u200dapp.ts", "src/\u200dapp.ts", p(notFound, format), absent},
	{"zero-width space", "src/app\u200b.ts", "src/app\u200b.ts", p(notFound, format), absent},
	{"zero-width non-joiner", "src\u200c/app.ts", "src\u200c/app.ts", p(notFound, format), absent},
	{"right-to-left override", "src/\u202est.ppa", "src/\u202est.ppa", p(notFound, format), absent},
	{"left-to-right isolate", "src/\u2066app.ts\u2069", "src/\u2066app.ts\u2069", p(notFound, format), absent},
	{"byte order mark", "\ufeffsrc/app.ts", "\ufeffsrc/app.ts", p(notFound, format), absent},
	{"word joiner", "src/app\u2060.ts", "src/app\u2060.ts", p(notFound, format), absent},
	{"soft hyphen", "src/app\u00ad.ts", "src/app\u00ad.ts", p(notFound, format), absent},
	{"Arabic letter mark", "src/\u061capp.ts", "src/\u061capp.ts", p(notFound, format), absent},
	{"tag character", "src/app.ts\U000e0041", "src/app.ts\U000e0041", p(notFound, format), absent},
	{"variation selector", "src/app\ufe0f.ts", "src/app\ufe0f.ts", p(notFound, format), absent},
	{"line separator", "src/app.ts\u2028", "src/app.ts\u2028", p(notFound, format), absent},
	{"Hangul filler", "src/\u3164.ts", "src/\u3164.ts", p(notFound, format), absent},
	{"zero-width non-joiner inside .git (ignored by HFS+)", ".g\u200cit/config", ".g\u200cit/config", p(notFound, format), absent},

	// Absolute, home, Windows, UNC and URL forms.
	{"absolute POSIX", "/etc/passwd", "", p(absolute), absent},
	{"filesystem root", "/", "", p(absolute), absent},
	{"double leading slash", "//etc/passwd", "", p(absolute), absent},
	{"absolute with traversal", "/../etc", "", p(absolute, traversal), absent},
	{"absolute path of an in-tree file", "$ROOT/src/app.ts", "", p(absolute), absent},
	{"home directory", "~/.ssh/id_rsa", "", p(absolute), absent},
	{"bare tilde", "~", "", p(absolute), absent},
	{"another user's home", "~root/.bashrc", "", p(absolute), absent},
	{"Windows drive with backslashes", `C:\Windows\System32`, "", p(absolute, backslash), absent},
	{"Windows drive with slashes", "C:/Windows", "", p(absolute), absent},
	{"bare drive", "c:", "", p(absolute), absent},
	{"drive-relative", "C:foo", "", p(absolute), absent},
	{"UNC share", `\\server\share\x`, "", p(absolute, backslash), absent},
	{"Win32 device namespace", `\\?\C:\x`, "", p(absolute, backslash), absent},
	{"rooted backslash", `\Windows`, "", p(absolute, backslash), absent},
	{"UNC with forward slashes", "//server/share", "", p(absolute), absent},
	{"file URL", "file:///etc/passwd", "", p(absolute), absent},
	{"file URL upper case", "FILE:/etc/passwd", "", p(absolute), absent},
	{"file scheme with a relative path", "file:src/app.ts", "", p(absolute), absent},
	{"http URL", "http://x", "", p(absolute), absent},
	{"https URL", "https://example.com/a", "", p(absolute), absent},
	{"scheme with plus", "git+ssh://host/repo", "", p(absolute), absent},
	{"s3 URL", "s3://bucket/key", "", p(absolute), absent},
	{"scheme-like text after a directory is a name", "src/http://x", "src/http:/x", p(notFound), absent},
	{"scheme must start with a letter", "1http://x", "1http:/x", p(notFound), absent},
	{"colon later in a name", "src/a:b.ts", "src/a:b.ts", p(notFound), absent},

	// Backslashes.
	{"backslash separator", `src\app.ts`, "", p(backslash), absent},
	{"trailing backslash", `src/app.ts\`, "", p(backslash), absent},

	// NUL and control characters.
	{"trailing NUL", "src/app.ts\x00", "", p(nul), absent},
	{"NUL before an extension", "src/app.ts\x00.png", "", p(nul), absent},
	{"only NUL", "\x00", "", p(nul), absent},
	{"trailing newline", "src/app.ts\n", "", p(control), absent},
	{"embedded newline", "src/\napp.ts", "", p(control), absent},
	{"carriage return", "src/app.ts\r", "", p(control), absent},
	{"tab", "\t", "", p(control), absent},
	{"ANSI escape", "src/\x1b[31mapp.ts", "", p(control), absent},
	{"DEL", "src/app\x7f.ts", "", p(control), absent},
	{"C1 next line", "src/app\u0085.ts", "", p(control), absent},
	{"C1 CSI", "src/app\u009b.ts", "", p(control), absent},
	{"NUL and newline", "src/\x00\n", "", p(control, nul), absent},

	// Length limits (bytes, as the kernel counts).
	{"path of 4097 bytes", strings.Repeat("a/", 2048) + "b", "", p(tooLong), absent},
	{"path of exactly 4096 bytes is too long once joined to the root", strings.Repeat("a/", 2047) + "bc", "", p(tooLong), absent},
	{"component of 256 bytes", "src/" + strings.Repeat("x", 256), "", p(tooLong), absent},
	{"component of exactly 255 bytes", "src/" + strings.Repeat("x", 255), "src/" + strings.Repeat("x", 255), p(notFound), absent},
	{"component of 128 two-byte runes", strings.Repeat("\u00e9", 128), "", p(tooLong), absent},

	// .git, in any case.
	{"git config", ".git/config", ".git/config", p(gitInternal), file},
	{"git HEAD", ".git/HEAD", ".git/HEAD", p(gitInternal), file},
	{"upper-case .GIT that exists on a case-sensitive disk", ".GIT/HEAD", ".GIT/HEAD", p(gitInternal), file},
	{"mixed-case .Git", ".Git/config", ".Git/config", p(gitInternal, notFound), absent},
	{"nested .git", "src/.git/x", "src/.git/x", p(gitInternal, notFound), absent},
	{"the .git directory", ".git", ".git", p(gitInternal, notRegular), dir},
	{"dot-dot back into .git", "src/../.git/config", ".git/config", p(gitInternal), file},
	{"dot-dot out of .git is cleaned away", ".git/../src/app.ts", "src/app.ts", p(), file},
	{"symlink into .git", "links/git/config", "links/git/config", p(gitInternal, symlink), file},
	{".git with a trailing dot is another name on Linux", ".git./config", ".git./config", p(notFound), absent},

	// mcpc's state directory.
	{"state database", ".ai/tmp/mcpc.db", ".ai/tmp/mcpc.db", p(state), file},
	{"state directory itself", ".ai/tmp", ".ai/tmp", p(notRegular, state), dir},
	{"state directory with trailing slash", ".ai/tmp/", ".ai/tmp", p(notRegular, state), dir},
	{"scratch path not created yet", ".ai/tmp/work/w1/scratch/a.txt", ".ai/tmp/work/w1/scratch/a.txt", p(notFound, state), absent},
	{"config beside the state directory", ".ai/config/base.json", ".ai/config/base.json", p(), file},
	{"name that only starts like tmp", ".ai/tmpfile", ".ai/tmpfile", p(notFound), absent},
	{"upper-case state directory", ".AI/TMP/mcpc.db", ".AI/TMP/mcpc.db", p(notFound, state), absent},
	{"symlink into the state directory", "links/state/mcpc.db", "links/state/mcpc.db", p(state, symlink), file},

	// Symlinks that stay inside: reported, with the target's facts.
	{"symlink to an in-tree file", "links/in-file", "links/in-file", p(symlink), file},
	{"file below a symlinked in-tree directory", "links/in-dir/app.ts", "links/in-dir/app.ts", p(symlink), file},
	{"symlink to an in-tree directory", "links/in-dir", "links/in-dir", p(notRegular, symlink), dir},
	{"absolute symlink to an in-tree file", "links/abs-in", "links/abs-in", p(symlink), file},
	{"chain of symlinks", "links/chain1", "links/chain1", p(symlink), file},
	{"symlink out and back in by name", "links/out-and-back", "links/out-and-back", p(symlink), file},
	{"symlink to the root", "links/root/src/app.ts", "links/root/src/app.ts", p(symlink), file},
	{"dot-dot after a symlinked directory is cleaned lexically", "links/in-dir/../README.md", "links/README.md", p(notFound), absent},
	{"dangling in-tree symlink", "links/dangling-in", "links/dangling-in", p(notFound, symlink), absent},
	{"symlink loop", "links/loop-a", "links/loop-a", p(notFound, symlink), absent},
	{"self-referential symlink", "links/self", "links/self", p(notFound, symlink), absent},
	{"below a symlink loop", "links/loop-a/x", "links/loop-a/x", p(notFound, symlink), absent},

	// Symlinks that leave: escapes, and nothing about the target is reported.
	{"absolute symlink to an outside file", "links/out-file", "links/out-file", p(escapes, symlink), absent},
	{"relative symlink to an outside file", "links/out-rel", "links/out-rel", p(escapes, symlink), absent},
	{"file below a symlinked parent outside", "links/out-dir/secret.txt", "links/out-dir/secret.txt", p(escapes, symlink), absent},
	{"missing file below a symlinked parent outside", "links/out-dir/missing.txt", "links/out-dir/missing.txt", p(escapes, symlink), absent},
	{"symlinked parent directory outside", "links/out-dir", "links/out-dir", p(escapes, symlink), absent},
	{"symlink to /dev/zero", "links/zero", "links/zero", p(escapes, symlink), absent},
	{"symlink to the root's parent", "links/up", "links/up", p(escapes, symlink), absent},
	{"out through the parent and back in", "links/up/repo/src/app.ts", "links/up/repo/src/app.ts", p(escapes, symlink), absent},
	{"dangling symlink to an absolute path", "links/dangling-out", "links/dangling-out", p(escapes, symlink), absent},
	{"symlink to a loop outside", "links/out-loop", "links/out-loop", p(escapes, symlink), absent},
	{"below a dangling outside symlink", "links/dangling-out/y", "links/dangling-out/y", p(escapes, symlink), absent},

	// Special files and hard links.
	{"FIFO", "pipe.fifo", "pipe.fifo", p(notRegular), special},
	{"unix socket", "sock", "sock", p(notRegular), special},
	{"hard link inside the tree", "src/h1.ts", "src/h1.ts", p(hardLinked), file},
	{"other name of the same inode", "src/h2.ts", "src/h2.ts", p(hardLinked), file},
	{"hard link to a file outside", "hardlink-out.txt", "hardlink-out.txt", p(hardLinked), file},
}

func TestResolve(t *testing.T) {
	fx := newFixture(t)
	// Writes get their own fixture, rebuilt only after a write succeeded: a
	// refused write must leave it unchanged, which checkWrite asserts.
	writes := &writeFixture{parent: t}
	for _, tc := range resolveCases {
		t.Run(tc.note, func(t *testing.T) {
			raw := strings.ReplaceAll(tc.raw, "$ROOT", fx.root)
			got := fx.r.Resolve(raw)
			want := Facts{
				Raw: raw, Canonical: tc.canonical, Problems: tc.problems, Valid: len(tc.problems) == 0,
				Exists: tc.kind != absent, Regular: tc.kind == file, Dir: tc.kind == dir,
			}
			if got.Raw != want.Raw || got.Canonical != want.Canonical || got.Valid != want.Valid ||
				!slices.Equal(got.Problems, want.Problems) || got.Exists != want.Exists ||
				got.Regular != want.Regular || got.Dir != want.Dir {
				t.Fatalf("Resolve(%q)\n got %+v\nwant %+v", raw, got, want)
			}
			if got.Problems == nil {
				t.Errorf("Problems is nil, want an empty list")
			}
			if !got.Exists && (got.Size != 0 || got.Links != 0) {
				t.Errorf("facts reported for something absent: size %d links %d", got.Size, got.Links)
			}
			checkReads(t, fx, raw, got)
			checkWrite(t, writes, raw, got)
		})
	}
}

// ioSafe reports whether the I/O functions should accept the canonical path
// of facts: nothing wrong with it but possibly being mcpc's own state.
func ioSafe(f Facts) bool {
	return f.Canonical != "" && f.Canonical != "." && !slices.ContainsFunc(f.Problems, func(c string) bool { return c != state })
}

// checkReads asserts that ReadFile and HashFile accept exactly what is safe,
// return the in-tree bytes, and refuse every non-canonical spelling.
func checkReads(t *testing.T, fx *fixture, raw string, f Facts) {
	t.Helper()
	if raw != f.Canonical {
		if _, err := fx.r.ReadFile(raw, 1<<20); err == nil {
			t.Errorf("ReadFile(raw %q) succeeded; only canonical paths may be read", raw)
		}
		if _, err := fx.r.HashFile(raw); err == nil {
			t.Errorf("HashFile(raw %q) succeeded; only canonical paths may be hashed", raw)
		}
	}
	if f.Canonical == "" {
		return
	}
	data, readErr := fx.r.ReadFile(f.Canonical, 1<<20)
	hash, hashErr := fx.r.HashFile(f.Canonical)
	if !ioSafe(f) || !f.Exists {
		if readErr == nil || hashErr == nil {
			t.Errorf("ReadFile/HashFile(%q) with problems %v: errors %v / %v, want refusals", f.Canonical, f.Problems, readErr, hashErr)
		}
		if !f.Exists && ioSafe(f) && !errors.Is(readErr, os.ErrNotExist) {
			t.Errorf("ReadFile(%q) of a missing file: %v, want fs.ErrNotExist", f.Canonical, readErr)
		}
		return
	}
	if readErr != nil || hashErr != nil {
		t.Fatalf("ReadFile/HashFile(%q): %v / %v", f.Canonical, readErr, hashErr)
	}
	want, err := os.ReadFile(filepath.Join(fx.root, f.Canonical))
	must(t, err)
	if !bytes.Equal(data, want) || bytes.Contains(data, []byte(outsideMarker)) {
		t.Errorf("ReadFile(%q) = %q, want %q", f.Canonical, data, want)
	}
	sum := sha256.Sum256(want)
	if wantHash := "sha256:" + hex.EncodeToString(sum[:]); hash != wantHash {
		t.Errorf("HashFile(%q) = %s, want %s", f.Canonical, hash, wantHash)
	}
}

// writeFixture is a fixture that is replaced once a write has changed it.
type writeFixture struct {
	parent *testing.T
	fx     *fixture
}

func (w *writeFixture) get() *fixture {
	if w.fx == nil {
		w.fx = newFixture(w.parent)
	}
	return w.fx
}

// checkWrite attempts writes and asserts that anything unsafe is refused
// without changing anything, inside or outside the tree.
func checkWrite(t *testing.T, writes *writeFixture, raw string, f Facts) {
	t.Helper()
	fx := writes.get()
	tree, outside := snapshot(t, fx.root), snapshot(t, fx.outside)
	defer func() {
		if t.Failed() || !slices.Equal(snapshot(t, fx.root), tree) {
			writes.fx = nil // start the next case from a clean fixture
		}
	}()
	payload := []byte("written by the test\n")

	if raw != f.Canonical {
		if err := fx.r.WriteFileAtomic(raw, payload, true); err == nil {
			t.Errorf("WriteFileAtomic(raw %q) succeeded; only canonical paths may be written", raw)
		}
		sameSnapshot(t, "worktree after a refused raw write", tree, snapshot(t, fx.root))
	}
	if f.Canonical != "" {
		err := fx.r.WriteFileAtomic(f.Canonical, payload, true)
		writable := ioSafe(f) || (f.Canonical != "." && !slices.ContainsFunc(f.Problems, func(c string) bool { return c != state && c != notFound }))
		switch {
		case !writable && err == nil:
			t.Errorf("WriteFileAtomic(%q) with problems %v succeeded", f.Canonical, f.Problems)
		case ioSafe(f) && err != nil:
			t.Errorf("WriteFileAtomic(%q) of a writable file: %v", f.Canonical, err)
		}
		if err != nil {
			sameSnapshot(t, "worktree after a refused write", tree, snapshot(t, fx.root))
		} else {
			after := fx.r.Resolve(f.Canonical)
			if !ioSafe(after) {
				t.Errorf("after writing %q, Resolve reports %v", f.Canonical, after.Problems)
			}
			if data, err := fx.r.ReadFile(f.Canonical, 1<<20); err != nil || !bytes.Equal(data, payload) {
				t.Errorf("read back %q: %q, %v", f.Canonical, data, err)
			}
		}
	}
	sameSnapshot(t, "outside directory", outside, snapshot(t, fx.outside))
}
