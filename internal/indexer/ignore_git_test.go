package indexer

import (
	"bytes"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gitTree is the files every TestIgnoreMatchesGit case is asked about
// (their directories are asked about too): names the patterns below hit
// and narrowly miss, at several depths.
var gitTree = []string{
	"a.log", "keep.log", "b.txt", "c.o", "c.a", "d.c", "ad.c", "x.iml", "foo", "foobar", "bar/foo", "bar/baz.log",
	"build/x.txt", "src/build/y.txt", "doc/build", "doc/a.txt", "doc/sub/b.txt", "doc/x/y/c.pdf", "doc/c.pdf",
	"a/b", "a/x/b", "a/x/y/b", "a/c", "ab/b", "abc/x", "axb", "a1b", "tmp/t.o", "x/tmp/t.o", "x/y/tmp/z",
	"file1.txt", "file7.txt", "filex.txt", "File2.TXT", "Upper.txt", "9lives", "]x", "-z", "az", "a-z", "[a]",
	"#hash", "!bang", "star*name", "starname", "sp ace", "trail ", "trail", "tabbed", "q.txt", "qq.txt",
	"src/app/main.ts", "src/app/main.spec.ts", "src/lib/x.js", "src/lib/deep/y.js", "src/keep.js",
	"logs/.gitignore", "logs/today.log", "logs/sub/old.log", "logs/keep.me",
	"env/environment.ts", "env/environment.prod.ts", "env/environment.test.ts", "env/sub/environment.x.ts",
	"crlf", "x.generated.ts", "y_generated.go", "a.min.js", "node_modules/p/index.js", "web/node_modules",
}

// TestIgnoreMatchesGit asks git itself (check-ignore, on a real
// repository holding gitTree) whether each path is ignored, and compares
// the walk's answer: a path is ignored when it or one of its directories
// is. Each case writes its .gitignore files, keyed by directory.
func TestIgnoreMatchesGit(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	tests := []struct {
		note  string
		files map[string]string
	}{
		{note: "plain names at any depth", files: map[string]string{"": "foo\nbaz.log\n"}},
		{note: "directory-only names", files: map[string]string{"": "build/\nfoo/\n"}},
		{note: "anchored names", files: map[string]string{"": "/build\n/foo\n/b.txt\n"}},
		{note: "extension globs and negation", files: map[string]string{"": "*.log\n!keep.log\n*.iml\n"}},
		{note: "a star in a folder", files: map[string]string{"": "doc/*.txt\nsrc/*/main.ts\n"}},
		{note: "double star between slashes", files: map[string]string{"": "doc/**/*.pdf\na/**/b\n"}},
		{note: "leading double star", files: map[string]string{"": "**/tmp\n**/build/y.txt\n"}},
		{note: "leading double star then a star", files: map[string]string{"": "**/tmp/*.o\n"}},
		{note: "trailing double star", files: map[string]string{"": "a/**\nsrc/lib/**\n"}},
		{note: "double star alone", files: map[string]string{"": "**\n!src/\n"}},
		{note: "anchored double star alone", files: map[string]string{"": "/**\n"}},
		{note: "double star after an anchored literal crosses slashes", files: map[string]string{"": "/a**\n!/a\n!/ab\n!/abc\n"}},
		{note: "double star after a literal then a slash", files: map[string]string{"": "/a**/b\n"}},
		{note: "double star inside a name is a star", files: map[string]string{"": "a**b\n"}},
		{note: "double star inside an anchored name is a star", files: map[string]string{"": "/a/x**b\n/src/l**/x.js\n"}},
		{note: "three stars", files: map[string]string{"": "***/b\n"}},
		{note: "question marks", files: map[string]string{"": "?.txt\na?b\n"}},
		{note: "character classes", files: map[string]string{"": "*.[oa]\nfile[0-9].txt\n[!a]d.c\n"}},
		{note: "caret negates a class", files: map[string]string{"": "[^a]d.c\n"}},
		{note: "POSIX classes", files: map[string]string{"": "[[:digit:]]*\n[[:upper:]]*.txt\n"}},
		{note: "bracket first in a class", files: map[string]string{"": "[]]x\n"}},
		{note: "dash at the end of a class", files: map[string]string{"": "a[-]z\n[a-]z\n"}},
		{note: "escaped bracket", files: map[string]string{"": `\[a]` + "\n"}},
		{note: "unterminated class matches nothing", files: map[string]string{"": "[ab\nfile[0-9\n"}},
		{note: "unknown POSIX class matches nothing", files: map[string]string{"": "[[:nope:]]*\n"}},
		{note: "escaped hash and bang", files: map[string]string{"": `\#hash` + "\n" + `\!bang` + "\n"}},
		{note: "escaped star is literal", files: map[string]string{"": `star\*name` + "\n"}},
		{note: "escaped trailing space is kept", files: map[string]string{"": `trail\ ` + "\n"}},
		{note: "trailing spaces are dropped", files: map[string]string{"": "trail   \nsp ace\n"}},
		{note: "a trailing tab is kept", files: map[string]string{"": "tabbed\t\n"}},
		{note: "CRLF line ends", files: map[string]string{"": "crlf\r\nb.txt\r\n"}},
		{note: "a byte order mark", files: map[string]string{"": "\ufefffoo\n"}},
		{note: "comments", files: map[string]string{"": "#hash\n # x\n"}},
		{note: "a directory cannot be re-included into", files: map[string]string{"": "build/\n!build/x.txt\n"}},
		{note: "whitelist under a star", files: map[string]string{"": "/*\n!/src\n/src/*\n!/src/lib\n"}},
		{note: "every directory", files: map[string]string{"": "*/\n!src/\n!src/**/\n"}},
		{note: "a star directory in a subfolder", files: map[string]string{"logs": "*\n!.gitignore\n!keep.me\n"}},
		{note: "nested gitignore anchored to its folder", files: map[string]string{"": "*.log\n", "logs": "/sub\n!today.log\n"}},
		{note: "nested gitignore with negation", files: map[string]string{"env": "environment.*.ts\n\n!environment.test.ts\n"}},
		{note: "nested wins over root", files: map[string]string{"": "*.ts\n", "src": "!*.spec.ts\n"}},
		{note: "doubled trailing slash", files: map[string]string{"": "foo//\nbuild//\n"}},
		{note: "defaults-like globs", files: map[string]string{"": "*_generated.*\n*.generated.*\n*.min.js\nnode_modules/\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			root := t.TempDir()
			git := func(stdin []byte, args ...string) []byte {
				cmd := exec.Command(gitBin, args...)
				cmd.Dir = root
				// No user or system excludes: only the case's files.
				cmd.Env = append(os.Environ(), "HOME="+root, "XDG_CONFIG_HOME="+root, "GIT_CONFIG_NOSYSTEM=1")
				cmd.Stdin = bytes.NewReader(stdin)
				out, err := cmd.Output()
				if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
					err = nil // check-ignore: nothing ignored
				}
				if err != nil {
					t.Fatalf("git %v: %v", args, err)
				}
				return out
			}
			git(nil, "init", "-q")
			for _, f := range gitTree {
				writeFile(t, root, f, []byte("x\n"))
			}
			for dir, content := range tt.files {
				writeFile(t, root, path.Join(dir, ".gitignore"), []byte(content))
			}
			paths, isDir := gitTreePaths()
			var stdin bytes.Buffer
			for _, p := range paths {
				stdin.WriteString(p + "\x00")
			}
			// -v -n -z: for each path its source, line, pattern and path,
			// an empty source when no pattern matched.
			fields := strings.Split(string(git(stdin.Bytes(), "check-ignore", "--no-index", "-v", "-n", "-z", "--stdin")), "\x00")
			want := map[string]bool{}
			for i := 0; i+3 < len(fields); i += 4 {
				want[fields[i+3]] = fields[i] != "" && !strings.HasPrefix(fields[i+2], "!")
			}
			for _, p := range paths {
				if got := walkIgnored(t, root, p, isDir[p]); got != want[p] {
					t.Errorf("%q: ignored %v, git says %v", p, got, want[p])
				}
			}
		})
	}
}

// gitTreePaths is every file of gitTree and every directory above one.
func gitTreePaths() ([]string, map[string]bool) {
	isDir := map[string]bool{}
	var paths []string
	for _, f := range gitTree {
		paths = append(paths, f)
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			if !isDir[d] {
				isDir[d] = true
				paths = append(paths, d)
			}
		}
	}
	slices.Sort(paths)
	return paths, isDir
}

// walkIgnored is what the walk decides for rel: each directory on the way
// down is matched against the rules above it and left unentered when
// ignored, and its .gitignore joins the stack when it is entered.
func walkIgnored(t *testing.T, root, rel string, isDir bool) bool {
	t.Helper()
	var stack ignoreStack
	dir := ""
	names := strings.Split(rel, "/")
	for i, name := range names {
		if data, err := os.ReadFile(filepath.Join(root, dir, ".gitignore")); err == nil {
			stack = append(stack, parseIgnore(dir, data))
		}
		dir = join(dir, name)
		last := i == len(names)-1
		if stack.ignored(dir, !last || isDir) {
			return true
		}
	}
	return false
}
