//go:build linux

package pathscope

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// kernelOpenat2 replaces openat2 for one test with fake, counting its calls
// (nil fake: the real call, counted), and starts and ends the test with no
// earlier refusal remembered.
func kernelOpenat2(t *testing.T, fake func(int, string, *unix.OpenHow) (int, error)) *int {
	t.Helper()
	calls, real := new(int), openat2
	if fake == nil {
		fake = real
	}
	openat2 = func(dirfd int, path string, how *unix.OpenHow) (int, error) {
		*calls++
		return fake(dirfd, path, how)
	}
	openat2Refused.Store(false)
	t.Cleanup(func() { openat2, _ = real, openat2Refused.Swap(false) })
	return calls
}

// TestOpenDirsAtOnce: the one-call walk opens a directory of plain
// directories below the root, and declines (so the walk decides and
// reports) whenever a link or a missing name is on the way, wherever it is.
func TestOpenDirsAtOnce(t *testing.T) {
	fx := newFixture(t)
	kernelOpenat2(t, nil)
	if _, ok := fx.r.openDirsAtOnce([]string{"src"}); !ok && openat2Refused.Load() {
		t.Skip("this kernel refuses openat2; TestWalkWithoutOpenat2 covers the walk")
	}
	must(t, os.Symlink(fx.outside, filepath.Join(fx.root, "src", "out")))
	for _, tc := range []struct {
		note   string
		dirs   []string
		wantOK bool
	}{
		{note: "the root itself", dirs: nil, wantOK: true},
		{note: "nested plain directories", dirs: []string{"src", "util"}, wantOK: true},
		{note: "a link to a directory inside", dirs: []string{"links", "in-dir"}},
		{note: "a link to a directory outside, last", dirs: []string{"src", "out"}},
		{note: "a link to the root", dirs: []string{"links", "root", "src"}},
		{note: "a link climbing out", dirs: []string{"links", "up", "outside"}},
		{note: "a missing directory", dirs: []string{"src", "nope"}},
		{note: "a file, not a directory", dirs: []string{"src", "app.ts"}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			fd, ok := fx.r.openDirsAtOnce(tc.dirs)
			if ok != tc.wantOK {
				t.Fatalf("openDirsAtOnce(%q) ok = %v, want %v", tc.dirs, ok, tc.wantOK)
			}
			if !ok {
				return
			}
			defer unix.Close(fd)
			var got, want unix.Stat_t
			must(t, unix.Fstat(fd, &got))
			must(t, unix.Lstat(filepath.Join(append([]string{fx.root}, tc.dirs...)...), &want))
			if got.Dev != want.Dev || got.Ino != want.Ino {
				t.Errorf("opened %d:%d, not the directory %q (%d:%d)", got.Dev, got.Ino, tc.dirs, want.Dev, want.Ino)
			}
		})
	}
	if openat2Refused.Load() {
		t.Error("an error about a path was taken for the kernel refusing openat2")
	}
}

// boundaryTests are the package's tests of what I/O may reach; each runs
// again with the kernel refusing openat2, so the walk alone is held to them.
var boundaryTests = map[string]func(*testing.T){
	"ReadRefusals":             TestReadRefusals,
	"ReadFileLimit":            TestReadFileLimit,
	"ReadRechecksAfterResolve": TestReadRechecksAfterResolve,
	"WriteFileAtomic":          TestWriteFileAtomic,
	"CreateFileAtomic":         TestCreateFileAtomic,
	"StampAndStage":            TestStampAndStage,
	"Sub":                      TestSub,
	"Lock":                     TestLock,
	"ReadDirNames":             TestReadDirNames,
	"Remove":                   TestRemove,
}

// TestWalkWithoutOpenat2: a kernel without openat2 (ENOSYS), or a seccomp
// filter refusing it (EPERM), leaves the boundary as it is with the
// descriptor walk, and is asked once, not on every open. The walk is the
// same whatever the refusal, so the second runs only the reads.
func TestWalkWithoutOpenat2(t *testing.T) {
	reads := map[string]func(*testing.T){"ReadRefusals": TestReadRefusals, "ReadRechecksAfterResolve": TestReadRechecksAfterResolve}
	for _, tc := range []struct {
		refusal unix.Errno
		tests   map[string]func(*testing.T)
	}{
		{refusal: unix.ENOSYS, tests: boundaryTests},
		{refusal: unix.EPERM, tests: reads},
	} {
		t.Run(tc.refusal.Error(), func(t *testing.T) {
			calls := kernelOpenat2(t, func(int, string, *unix.OpenHow) (int, error) { return -1, tc.refusal })
			for name, test := range tc.tests {
				t.Run(name, test)
			}
			if *calls != 1 {
				t.Errorf("openat2 was asked %d times after the kernel refused it, want once", *calls)
			}
		})
	}
}

// TestOpenat2Used: where the kernel has openat2, a read goes through it.
func TestOpenat2Used(t *testing.T) {
	fx := newFixture(t)
	calls := kernelOpenat2(t, nil)
	if _, err := fx.r.ReadFile("src/util/strings.ts", 1<<10); err != nil {
		t.Fatal(err)
	}
	if openat2Refused.Load() {
		t.Skip("this kernel refuses openat2")
	}
	if *calls != 1 {
		t.Errorf("a read asked openat2 %d times, want once", *calls)
	}
}

// BenchmarkReadStamped is what a read turn asks of pathscope's I/O: the
// file read with its stamp ahead of the lock, then the stamp checked under
// it, through openat2 and through the walk (a kernel refusing openat2).
func BenchmarkReadStamped(b *testing.B) {
	fx := newFixture(b)
	const target = "src/util/strings.ts"
	for _, walk := range []bool{false, true} {
		name := "openat2"
		if walk {
			name = "walk"
		}
		b.Run(name, func(b *testing.B) {
			openat2Refused.Store(walk)
			defer openat2Refused.Store(false)
			b.ReportAllocs()
			for b.Loop() {
				_, stamp, err := fx.r.ReadFileStamped(target, 1<<20)
				if err != nil {
					b.Fatal(err)
				}
				if now, err := fx.r.StatStamp(target); err != nil || now != stamp {
					b.Fatalf("stamp %+v, now %+v, %v", stamp, now, err)
				}
			}
		})
	}
}
