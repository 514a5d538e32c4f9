package controller

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/rs/zerolog"
)

// recorder writes decision record files after the turn's transaction has
// committed the same record to the store. Creating a file costs more than
// the rest of a read turn on slow disks, so it happens off the turn's path,
// in order, and Close waits for every pending write (fail-safe
// post-recording, seed 004).
type recorder struct {
	log  zerolog.Logger
	ch   chan recordFile
	wg   sync.WaitGroup
	once sync.Once
}

type recordFile struct {
	path string
	data []byte
}

func newRecorder(log zerolog.Logger) *recorder {
	r := &recorder{log: log, ch: make(chan recordFile, 256)}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		made := map[string]bool{}
		for f := range r.ch {
			dir := filepath.Dir(f.path)
			if !made[dir] {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					r.log.Warn().Err(err).Msg("decision record folder not created")
					continue
				}
				made[dir] = true
			}
			if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
				r.log.Warn().Err(err).Str("record", f.path).Msg("decision record file not written; the store keeps it")
			}
		}
	}()
	return r
}

func (r *recorder) write(path string, data []byte) { r.ch <- recordFile{path: path, data: data} }

// close flushes pending records.
func (r *recorder) close() {
	r.once.Do(func() { close(r.ch) })
	r.wg.Wait()
}
