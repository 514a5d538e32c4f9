//go:build unix

package pathscope

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestStampAndStage: a stamp read with the content matches until the file
// is written, a staged replacement is published only over the content it
// was staged against, and a staged creation never replaces a file.
func TestStampAndStage(t *testing.T) {
	for _, tc := range []struct {
		note    string
		between func(t *testing.T, abs string) // what happens to the file after it was read
		create  bool
		wantErr error
	}{
		{note: "unchanged file is replaced", between: func(*testing.T, string) {}},
		{note: "a write in place is stale", between: func(t *testing.T, abs string) { must(t, os.WriteFile(abs, []byte("edited\n"), 0o644)) }, wantErr: ErrStale},
		{note: "an atomic replacement is stale", between: func(t *testing.T, abs string) {
			must(t, os.WriteFile(abs+".new", []byte("export const s = 'x';\n"), 0o644))
			must(t, os.Rename(abs+".new", abs))
		}, wantErr: ErrStale},
		{note: "a removed file is stale", between: func(t *testing.T, abs string) { must(t, os.Remove(abs)) }, wantErr: ErrStale},
		{note: "a creation over a file that appeared fails", between: func(*testing.T, string) {}, create: true, wantErr: fs.ErrExist},
	} {
		t.Run(tc.note, func(t *testing.T) {
			fx := newFixture(t)
			const file = "src/util/strings.ts"
			abs := filepath.Join(fx.root, file)
			data, stamp, err := fx.r.ReadFileStamped(file, 1<<20)
			if err != nil || !stamp.Known() || string(data) != "export const s = 'x';\n" {
				t.Fatalf("ReadFileStamped = %q, %+v, %v", data, stamp, err)
			}
			if now, err := fx.r.StatStamp(file); err != nil || now != stamp {
				t.Fatalf("StatStamp of the unchanged file = %+v, %v; want %+v", now, err, stamp)
			}
			staged, err := fx.r.Stage(file, []byte("patched\n"))
			must(t, err)
			tc.between(t, abs)
			if tc.create {
				err = staged.Create()
			} else {
				err = staged.Replace(stamp)
			}
			if !errors.Is(err, tc.wantErr) && !(tc.wantErr == nil && err == nil) {
				t.Fatalf("publishing = %v, want %v", err, tc.wantErr)
			}
			got, _ := os.ReadFile(abs)
			if (tc.wantErr == nil) != (string(got) == "patched\n") {
				t.Errorf("the file holds %q after publishing ended with %v", got, err)
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(abs), ".mcpc-write-*")); len(left) > 0 {
				t.Errorf("staged files left: %v", left)
			}
		})
	}
}

// TestReadUpTo: a read sized by an fstat still reads what the file holds
// when it grew or shrank since, and stops one byte past the limit.
func TestReadUpTo(t *testing.T) {
	content := []byte("0123456789")
	for _, tc := range []struct {
		note        string
		size, limit int64
		want        string
	}{
		{note: "the size the fstat gave", size: 10, limit: 100, want: "0123456789"},
		{note: "the file grew since the fstat", size: 3, limit: 100, want: "0123456789"},
		{note: "the file grew from empty", size: 0, limit: 100, want: "0123456789"},
		{note: "the file shrank since the fstat", size: 50, limit: 100, want: "0123456789"},
		{note: "the file grew past the limit", size: 3, limit: 5, want: "012345"},
		{note: "a limit of zero", size: 0, limit: 0, want: "0"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			f, err := os.Create(filepath.Join(t.TempDir(), "f"))
			must(t, err)
			defer f.Close()
			_, err = f.Write(content)
			must(t, err)
			_, err = f.Seek(0, 0)
			must(t, err)
			got, err := readUpTo(int(f.Fd()), tc.size, tc.limit)
			if err != nil || string(got) != tc.want {
				t.Errorf("readUpTo(size %d, limit %d) = %q, %v; want %q", tc.size, tc.limit, got, err, tc.want)
			}
		})
	}
}
