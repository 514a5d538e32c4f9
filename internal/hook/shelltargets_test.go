package hook

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpc/mcpc/internal/pathscope"
)

func TestShellTargets(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"src/a.ts", "src/b.ts", "private.ts"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := pathscope.New(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		note, cwd, cmd string
		want           []string // access and canonical (or raw) path of each target
	}{
		{note: "existing file is read", cmd: "cat private.ts", want: []string{"read private.ts"}},
		{note: "missing file is named", cmd: "cat nothing.ts", want: []string{"named nothing.ts"}},
		{note: "pattern names its matches", cmd: "cat src/*.ts", want: []string{"read src/a.ts", "read src/b.ts"}},
		{note: "pattern matching nothing stays", cmd: "cat *.md", want: []string{"named *.md"}},
		{note: "climbing out of the cwd is outside", cwd: "src", cmd: "cat ../../../../../../../../../../etc/passwd", want: []string{"read /etc/passwd"}},
		{note: "home directory is outside", cmd: "cat ~/.ssh/id_rsa", want: []string{"read ~/.ssh/id_rsa"}},
		{note: "an option's value is an operand", cmd: "grep --file=/etc/shadow x", want: []string{"read /etc/shadow", "named x"}},
		{note: "a directory is named", cmd: "ls src", want: []string{"named src"}},
		{note: "a pattern outside is not listed", cmd: "cat /etc/*", want: []string{"read /etc/*"}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			sc := parseShell(tc.cmd)
			cwd := root
			if tc.cwd != "" {
				cwd = filepath.Join(root, tc.cwd)
			}
			var got []string
			for _, tg := range shellTargets(res, cwd, &sc) {
				name := tg.Path.Canonical
				if name == "" {
					name = tg.Path.Raw
				}
				got = append(got, tg.Access+" "+name)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("targets %q, want %q", got, tc.want)
			}
		})
	}
}

func TestShellTargetsManyMatches(t *testing.T) {
	root := t.TempDir()
	for i := range maxGlobTargets + 1 {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%03d.ts", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := pathscope.New(root)
	if err != nil {
		t.Fatal(err)
	}
	sc := parseShell("cat *.ts")
	got := shellTargets(res, root, &sc)
	if len(got) != 1 || got[0].Access != "read" || got[0].Path.Raw != "*.ts" {
		t.Fatalf("a pattern of %d files: %+v, want one read of the pattern", maxGlobTargets+1, got)
	}
}
