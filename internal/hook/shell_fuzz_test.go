package hook

import (
	"testing"

	"github.com/mcpc/mcpc/internal/pathscope"
)

// FuzzParseShell: any command parses without a panic into segments whose
// lists are never nil and whose words line up with their argv, and the
// targets drawn from it resolve without one.
func FuzzParseShell(f *testing.F) {
	for _, seed := range []string{
		"git status && ls src | wc -l", `env -i FOO=1 nice -n5 timeout -s KILL 5 rm -rf "src" > out 2>&1`,
		"cat ~/.ssh/id_rsa src/*.ts {a,b}.ts $HOME/x", "sort -uo out --output=x <in", `echo 'a b' "c \"d\" $X" \; #`,
		"command -v rm; exec -a x ls; env -S 'rm x'", "a=1 b=2", "time -p ls", "cat <> x", "ls >| y", "\x00\n\t$",
	} {
		f.Add(seed)
	}
	root := f.TempDir()
	res, err := pathscope.New(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		sc := parseShell(cmd)
		for _, seg := range sc.Segments {
			if seg.Argv == nil || seg.Redirects == nil || seg.Inputs == nil || seg.Assignments == nil || seg.Wrappers == nil {
				t.Fatalf("%q: a nil list in %+v", cmd, seg)
			}
			if len(seg.words) != len(seg.Argv) {
				t.Fatalf("%q: %d words for argv %q", cmd, len(seg.words), seg.Argv)
			}
		}
		for _, tg := range shellTargets(res, root, &sc) {
			if tg.Access != "read" && tg.Access != "write" && tg.Access != "named" {
				t.Fatalf("%q: target access %q", cmd, tg.Access)
			}
		}
	})
}
