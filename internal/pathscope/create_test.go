//go:build unix

package pathscope

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestCreateFileAtomic(t *testing.T) {
	root := t.TempDir()
	r, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "taken.ts"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(root, "link.ts")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		note, file string
		mkdir      bool
		err        error // nil: created
	}{
		{"a new file", "new.ts", false, nil},
		{"a new file in a new folder", "src/app/new/new.ts", true, nil},
		{"an existing file is never replaced", "taken.ts", false, fs.ErrExist},
		{"a symlink is never followed or replaced", "link.ts", false, fs.ErrExist},
		{"a missing folder without mkdir", "nope/new.ts", false, fs.ErrNotExist},
	} {
		t.Run(tc.note, func(t *testing.T) {
			err := r.CreateFileAtomic(tc.file, []byte("export const x = 1;\n"), tc.mkdir)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("error %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(root, tc.file))
			if err != nil || string(got) != "export const x = 1;\n" {
				t.Fatalf("content %q, %v", got, err)
			}
		})
	}
	if got, _ := os.ReadFile(filepath.Join(root, "taken.ts")); string(got) != "old" {
		t.Errorf("taken.ts became %q", got)
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if filepath.Ext(e.Name()) == ".tmp" {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}
