package controller

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

func TestRecorder(t *testing.T) {
	dir := t.TempDir()
	r := newRecorder(zerolog.Nop())
	path := func(i int) string { return filepath.Join(dir, "w", "decisions", fmt.Sprintf("%06d.json", i)) }
	for i := 1; i <= 300; i++ { // past the burst threshold
		r.write(path(i), []byte(fmt.Sprint(i)))
	}
	r.write(path(301), []byte("301"))
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := os.Stat(path(301)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("records were not written after the idle pause")
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.write(path(302), []byte("302"))
	r.close() // writes what is pending
	for _, i := range []int{1, 256, 300, 302} {
		if data, err := os.ReadFile(path(i)); err != nil || string(data) != fmt.Sprint(i) {
			t.Errorf("record %d: %q %v", i, data, err)
		}
	}
	r.write(path(303), []byte("303")) // after close: at once
	if _, err := os.Stat(path(303)); err != nil {
		t.Errorf("a record after close was not written at once: %v", err)
	}
}
