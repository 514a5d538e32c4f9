package pathscope

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSweepStaged(t *testing.T) {
	root := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for _, tc := range []struct {
		note, rel string
		age       time.Time
		swept     bool
	}{
		{"a stale staged write beside a file", "src/.mcpc-write-0123456789abcdef.tmp", old, true},
		{"a fresh staged write a live process may publish", "src/.mcpc-write-fedcba9876543210.tmp", time.Now(), false},
		{"a person's file with a like name", "src/.mcpc-write-notours.tmp", old, false},
		{"a person's temp file", "src/notes.tmp", old, false},
		{"a staged name under .git", ".git/.mcpc-write-0123456789abcdef.tmp", old, false},
	} {
		t.Run(tc.note, func(t *testing.T) {
			path := filepath.Join(root, tc.rel)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(path, tc.age, tc.age); err != nil {
				t.Fatal(err)
			}
			n, err := SweepStaged(root, 10*time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			_, statErr := os.Stat(path)
			if swept := os.IsNotExist(statErr); swept != tc.swept || (n == 1) != tc.swept {
				t.Errorf("swept %v (%d removed), want %v", swept, n, tc.swept)
			}
		})
	}
}
