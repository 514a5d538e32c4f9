package controller

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/store"
)

// recordIdle is how long the recorder waits for a quiet moment before it
// writes pending decision record files.
const recordIdle = 100 * time.Millisecond

// recordBacklog bounds the bytes of records waiting for a quiet moment; past
// it they are written at once, even mid-burst.
const recordBacklog = 64 << 20

// recorder writes decision record files after the turn's transaction has
// committed the same record to the store (the authority explain-deny reads).
// Creating a file costs more than the rest of a read turn (a new inode; on
// a filesystem that has churned through many files ext4 scans for one), so
// files wait for a pause between turns, which an agent's thinking time
// always gives, and are written then, in order. Close writes whatever is
// still pending (fail-safe post-recording, seed 004).
type recorder struct {
	log     zerolog.Logger
	mu      sync.Mutex // guards pending, bytes, timer, done
	pending []recordFile
	bytes   int
	backlog int // recordBacklog; smaller in tests
	timer   *time.Timer
	done    bool
	writing sync.Mutex // one writer at a time, in order; guards written
	written int        // records written since idle last did its work
	// save writes one file at a worktree-relative path, never through a
	// symlink: the work's folder is in the repository, where anything may
	// have been planted (Resolver.WriteFile).
	save func(canonical string, data []byte) error
	// idle runs after the files of a quiet moment are written, with the
	// number of records written since it last did its work, and says
	// whether it did: upkeep that should not land on a turn (the store's
	// checkpoint).
	idle func(records int) (done bool)
	// pause runs after idle, in every quiet moment (Options.Pause).
	pause func()
}

type recordFile struct {
	path string
	data []byte
}

func newRecorder(log zerolog.Logger, save func(canonical string, data []byte) error, idle func(records int) bool) *recorder {
	return &recorder{log: log, save: save, backlog: recordBacklog, idle: idle}
}

// write queues a record file and (re)arms the idle timer.
func (r *recorder) write(path string, data []byte) {
	r.mu.Lock()
	r.pending = append(r.pending, recordFile{path, data})
	r.bytes += len(data)
	switch {
	case r.done:
		r.mu.Unlock()
		r.flush()
		return
	case r.bytes >= r.backlog: // a long burst: do not let the backlog grow
		r.bytes = 0
		go r.flush()
	case r.timer == nil:
		r.timer = time.AfterFunc(recordIdle, r.quiet)
	default:
		r.timer.Reset(recordIdle)
	}
	r.mu.Unlock()
}

// quiet is the idle timer's work: the pending files, then idle upkeep.
// idle runs under the writing lock, so never twice at once.
func (r *recorder) quiet() {
	r.flush()
	r.writing.Lock()
	defer r.writing.Unlock()
	if r.idle != nil && r.idle(r.written) {
		r.written = 0
	}
	if r.pause != nil {
		r.pause()
	}
}

// flush writes everything pending, without holding up new records.
func (r *recorder) flush() {
	r.writing.Lock()
	defer r.writing.Unlock()
	r.mu.Lock()
	batch := r.pending
	r.pending, r.bytes = nil, 0
	r.mu.Unlock()
	for _, f := range batch {
		r.writeFile(f)
	}
	r.written += len(batch)
}

func (r *recorder) writeFile(f recordFile) {
	if err := r.save(f.path, f.data); err != nil {
		r.log.Warn().Err(err).Str("record", f.path).Msg("decision record file not written; the store keeps it")
	}
}

// close writes what is pending; later records are written at once.
func (r *recorder) close() {
	r.mu.Lock()
	if r.timer != nil {
		r.timer.Stop()
	}
	r.done = true
	r.mu.Unlock()
	r.flush()
}

// eachWorkFolder calls fn with each work of the store and the names in its
// folder sub (none when the folder does not exist), and stops at fn's first
// error. A folder that cannot be listed is logged and passed over.
func (c *Controller) eachWorkFolder(ctx context.Context, sub string, fn func(work string, names []string) error) error {
	var works []string
	err := c.store.View(ctx, func(tx *store.Tx) (err error) {
		works, err = tx.WorkIDs(ctx)
		return err
	})
	if err != nil {
		return err
	}
	for _, w := range works {
		names, err := c.paths.ReadDirNames(workDir(w) + "/" + sub)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			c.log.Warn().Err(err).Str("work", w).Str("folder", sub).Msg("work folder not checked")
			continue
		}
		if err := fn(w, names); err != nil {
			return err
		}
	}
	return nil
}

// BackfillRecords writes the file of every decision the store holds whose
// file the work's decisions folder lacks, and says how many it wrote. A
// process that dies (kill -9, a crash) before its next pause has written
// the rows of its last turns but not their files; serve runs this in the
// background when it starts. A file another live process is about to
// write may be written by both, each time whole (an atomic rename).
func (c *Controller) BackfillRecords(ctx context.Context) (int, error) {
	written := 0
	err := c.eachWorkFolder(ctx, "decisions", func(w string, names []string) error {
		have := make(map[string]bool, len(names))
		for _, n := range names {
			have[n] = true
		}
		var missing []recordFile
		err := c.store.View(ctx, func(tx *store.Tx) error {
			seqs, err := tx.DecisionSeqs(ctx, w)
			if err != nil {
				return err
			}
			for _, seq := range seqs {
				p := c.recordPath(w, seq)
				if have[path.Base(p)] {
					continue
				}
				rec, err := tx.Decision(ctx, w, seq)
				if err != nil {
					return err
				}
				missing = append(missing, recordFile{p, rec})
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, f := range missing {
			if err := c.paths.WriteFileAtomic(f.path, f.data, true); err != nil {
				c.log.Warn().Err(err).Str("record", f.path).Msg("decision record file not written; the store keeps it")
				continue
			}
			written++
		}
		return nil
	})
	return written, err
}
