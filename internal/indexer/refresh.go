package indexer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/mcpc/mcpc/internal/grammar"
)

// batchSize is how many changed files one transaction writes: large enough
// to amortise commits, small enough that an interrupted run loses little.
const batchSize = 256

// checkpointAfter is how many re-parsed files make a refresh checkpoint
// the log itself (see Refresh): a few batches' worth.
const checkpointAfter = 4 * batchSize

// job is one file the refresh must look at; result is what a worker made of it.
type job struct {
	cand     candidate
	root     string // the workspace root the candidate's Rel is under
	prevHash string // of the indexed content, "" for a new file
	maxBytes int64
}

type result struct {
	facts   *fileFacts // new facts, or only path, size and mtime when touched
	touched bool       // content unchanged: only size/mtime moved
	problem *Problem
	rel     string
}

// Refresh brings the index up to date with the workspace: it re-parses files
// whose content hash changed, drops files that are gone or now skipped, and
// records problems. progress, if not nil, is called with files done and total.
// If ctx is cancelled the batches already committed stay, and the next
// Refresh continues from them.
func (ix *Index) Refresh(ctx context.Context, progress func(done, total int)) (sum Summary, err error) {
	ix.refreshMu.Lock()
	defer ix.refreshMu.Unlock()
	started := time.Now()
	if err := ix.takeLoadError(); err != nil {
		return sum, err
	}

	w := &walker{root: ix.opts.Root, maxBytes: ix.opts.MaxFileBytes, prev: ix.previousListings()}
	if ix.opts.Watch {
		w.dirty, w.vouch = ix.watched.begin()
		if q := ix.watched.quiet; w.vouch && len(w.dirty) == 0 && q != nil {
			// No directory changed since a refresh brought the index up
			// to date: there is nothing to walk, read or write.
			ix.watched.quiets++
			sum = *q
			sum.Problems = append([]Problem(nil), q.Problems...)
			sum.Reparsed, sum.Removed, sum.Seconds = 0, 0, time.Since(started).Seconds()
			return sum, nil
		}
		ix.watched.quiet = nil
		w.watch = ix.watched.w
		defer func() {
			if err != nil {
				ix.watched.failed()
			} else if w.unwatched == 0 && w.watch != nil {
				q := sum
				ix.watched.quiet = &q
			}
		}()
	}
	var (
		results  <-chan result
		walked   <-chan error // the streamed walk's end, nil if it ended before
		present  map[string]bool
		removed  []string
		problems []Problem
		total    int
		done     int
	)
	ix.mu.RLock()
	cold := len(ix.files) == 0
	ix.mu.RUnlock()
	if cold && len(w.prev) == 0 && w.watch == nil {
		var in <-chan job
		in, walked = streamWalk(ctx, w, ix.opts.Exclude, ix.opts.Root, ix.opts.MaxFileBytes)
		results = ix.process(ctx, in)
	} else {
		if err = w.walk(ctx, ix.opts.Exclude); err != nil {
			return sum, err
		}
		ix.walked(w)
		var jobs []job
		jobs, present, removed = ix.changedJobs(w)
		total = len(w.files)
		done = total - len(jobs)
		if progress != nil {
			progress(done, total)
		}
		problems = append(make([]Problem, 0, len(w.problems)), w.problems...)
		sum.Skipped = w.skipped
		results = ix.process(ctx, feedJobs(ctx, jobs))
	}

	// endWalk takes in what the streamed walk found once it ended (its
	// send on walked orders its writes to w before this); a walk that
	// failed fails the refresh, its committed batches kept.
	var walkErr error
	endWalk := func(werr error) {
		walked = nil
		if werr != nil {
			walkErr = werr
		} else {
			ix.walked(w)
		}
		total = len(w.files)
		present = make(map[string]bool, len(w.files))
		for _, c := range w.files {
			present[c.Rel] = true
		}
		problems = append(problems, w.problems...)
		sum.Skipped += w.skipped
	}
	var batch []result
	wrote := false
	change := ix.newCountChange()
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		wrote = true
		if err := change.note(ctx, ix, batch); err != nil {
			return err
		}
		if err := ix.apply(ctx, batch, nil, nil); err != nil {
			return err
		}
		done += len(batch)
		if walked != nil {
			select {
			case werr := <-walked:
				endWalk(werr)
			default:
			}
		}
		if progress != nil && walked == nil {
			progress(done, total)
		}
		batch = batch[:0]
		return nil
	}
	for res := range results {
		if err != nil {
			continue // drain the workers
		}
		if res.problem != nil {
			problems = append(problems, *res.problem)
			sum.Skipped++
			removed = append(removed, res.rel) // no longer indexable
			done++
			continue
		}
		if !res.touched {
			sum.Reparsed++
		}
		batch = append(batch, res)
		if len(batch) >= batchSize {
			err = flush()
		}
	}
	if walked != nil {
		endWalk(<-walked) // the results ended, so did the walk
	}
	if err == nil {
		err = walkErr
	}
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		err = flush()
	}
	if err != nil {
		sum.Seconds = time.Since(started).Seconds()
		return sum, err
	}
	sort.Slice(problems, func(i, j int) bool { return problems[i].File < problems[j].File })
	// A refresh that found nothing new must not pay for a write
	// transaction: it runs before every pack.
	if len(removed) > 0 {
		change.ok = false
	}
	if len(removed) > 0 || ix.problemsChanged(problems) {
		if err := ix.apply(ctx, nil, removed, problems); err != nil {
			return sum, err
		}
		wrote = true
	}
	for _, p := range removed {
		if !present[p] {
			sum.Removed++
		}
	}

	// A refresh that wrote many batches (a cold build: 19 of them at
	// 4,787 files, a 24 MB log) copies its log into the database while
	// the counts are recounted on the other core, not in the close of
	// the last connection afterwards, where it was 115-155 ms of wall
	// time with one core idle.
	var checkpointed chan struct{}
	if sum.Reparsed >= checkpointAfter {
		checkpointed = make(chan struct{})
		go func() {
			defer close(checkpointed)
			ix.db.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`) // best effort: the close copies what is left
		}()
	}
	counts, files, err := ix.counts(ctx, wrote, change)
	if checkpointed != nil {
		<-checkpointed
	}
	if err != nil {
		return sum, err
	}
	sum.Files, sum.Symbols, sum.Edges, sum.Usages = files, counts.Symbols, counts.Edges, counts.Usages
	sum.Problems = ix.Problems()
	for _, p := range sum.Problems {
		if p.Kind == ProblemParseError {
			sum.ParseErrors++
		}
	}
	sum.Seconds = time.Since(started).Seconds()
	return sum, nil
}

// changedJobs are the walked files whose stamps differ from the index's,
// with the paths the walk found and the indexed paths it did not (sorted).
func (ix *Index) changedJobs(w *walker) (jobs []job, present map[string]bool, removed []string) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	present = make(map[string]bool, len(w.files))
	for _, c := range w.files {
		present[c.Rel] = true
		prev := ix.files[c.Rel]
		if prev != nil && prev.Size == c.Size && prev.ModTime == c.ModTime {
			continue
		}
		j := job{cand: c, root: ix.opts.Root, maxBytes: ix.opts.MaxFileBytes}
		if prev != nil {
			j.prevHash = prev.Hash
		}
		jobs = append(jobs, j)
	}
	for p := range ix.files {
		if !present[p] {
			removed = append(removed, p)
		}
	}
	sort.Strings(removed)
	return jobs, present, removed
}

// feedJobs hands jobs out one at a time until ctx ends.
func feedJobs(ctx context.Context, jobs []job) <-chan job {
	in := make(chan job)
	go func() {
		defer close(in)
		for _, j := range jobs {
			select {
			case in <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	return in
}

// streamWalk runs a cold build's walk (`mcpc index` on a new workspace,
// from no listings: every file it lists is a job) on a goroutine of its
// own and hands out each file as a job as soon as it is listed, so the
// workers parse while the walk goes on instead of after it (4,787 files:
// 30-50 ms of wall time with one core idle). The walk queues what it
// lists rather than waiting on the workers, so that it ends early: the
// total, its problems and its listings are known then, and walked
// receives its error (its send orders its writes to w before the
// receiver's reads).
func streamWalk(ctx context.Context, w *walker, exclude []string, root string, maxBytes int64) (<-chan job, <-chan error) {
	var (
		mu     sync.Mutex
		queue  []candidate
		ended  bool
		wake   = make(chan struct{}, 1)
		walked = make(chan error, 1)
		in     = make(chan job)
	)
	signal := func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	w.found = func(c candidate) {
		mu.Lock()
		queue = append(queue, c)
		mu.Unlock()
		signal()
	}
	go func() {
		err := w.walk(ctx, exclude)
		mu.Lock()
		ended = true
		mu.Unlock()
		signal()
		walked <- err
	}()
	go func() {
		defer close(in)
		for {
			mu.Lock()
			listed, end := queue, ended
			queue = nil
			mu.Unlock()
			for _, c := range listed {
				select {
				case in <- job{cand: c, root: root, maxBytes: maxBytes}:
				case <-ctx.Done():
					return
				}
			}
			if len(listed) > 0 {
				continue
			}
			if end {
				return
			}
			select {
			case <-wake:
			case <-ctx.Done():
				return
			}
		}
	}()
	return in, walked
}

// processWindow bounds how many files are read and parsed ahead of the
// one the consumer waits for: enough to keep every worker busy while a
// batch is written (a few tens of milliseconds, a few tens of files),
// few enough that the facts in flight stay small.
const processWindow = 64

// process reads, hashes and parses jobs on a pool of workers, one parser
// set each, and hands the results back in job order: the batches and so the
// database come out the same whatever the number of workers or how the
// scheduler interleaved them.
func (ix *Index) process(ctx context.Context, jobs <-chan job) <-chan result {
	workers := ix.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type slot struct {
		j   job
		out chan result // buffered: a worker never waits on the consumer
	}
	in := make(chan slot)
	// ordered holds the slots in job order; its capacity is the window.
	ordered := make(chan chan result, max(processWindow, 8*workers))
	out := make(chan result)
	for range workers {
		go func() {
			ps, tc := newParserSet(), newTermCounter()
			defer ps.close()
			var buf []byte
			for s := range in {
				s.out <- processFile(ps, tc, &buf, s.j)
			}
		}()
	}
	go func() {
		defer close(in)
		defer close(ordered)
		for j := range jobs {
			s := slot{j: j, out: make(chan result, 1)}
			select {
			case ordered <- s.out:
			case <-ctx.Done():
				return
			}
			in <- s
		}
	}()
	go func() {
		defer close(out)
		for c := range ordered {
			out <- <-c
		}
	}()
	return out
}

// processFile reads, checks, hashes and parses one file. buf, if not nil,
// is the worker's read buffer: src is read into it and kept there for the
// next file, so nothing of the result may point into src (the facts copy
// their strings out of it).
func processFile(ps *parserSet, tc *termCounter, buf *[]byte, j job) result {
	c := j.cand
	var reuse []byte
	if buf != nil {
		reuse = *buf
	}
	src, err := readRegularInto(filepath.Join(j.root, filepath.FromSlash(c.Rel)), j.maxBytes, reuse)
	if buf != nil && err == nil {
		*buf = src[:0]
	}
	if err != nil {
		kind := ProblemUnreadable
		if errors.Is(err, fs.ErrNotExist) {
			kind = ProblemVanished
		}
		return result{rel: c.Rel, problem: &Problem{File: c.Rel, Kind: kind, Message: err.Error()}}
	}
	if int64(len(src)) > j.maxBytes {
		return result{rel: c.Rel, problem: &Problem{File: c.Rel, Kind: ProblemTooLarge, Message: "grew past the size limit while indexing"}}
	}
	head := src
	if len(head) > 8000 {
		head = head[:8000]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return result{rel: c.Rel, problem: &Problem{File: c.Rel, Kind: ProblemBinary, Message: "contains NUL bytes"}}
	}
	if !validUTF8(src) {
		return result{rel: c.Rel, problem: &Problem{File: c.Rel, Kind: ProblemNotUTF8, Message: "not valid UTF-8"}}
	}
	sum := sha256.Sum256(src)
	hash := hex.EncodeToString(sum[:])
	if j.prevHash == hash {
		return result{rel: c.Rel, facts: &fileFacts{Path: c.Rel, Size: int64(len(src)), ModTime: c.ModTime}, touched: true}
	}
	f := &fileFacts{Path: c.Rel, Hash: hash, Size: int64(len(src)), ModTime: c.ModTime, Lang: grammar.Of(c.Rel)}
	f.Terms, f.Length = tc.count(src)
	extract(ps, f, src)
	return result{rel: c.Rel, facts: f}
}

// apply writes one batch in a transaction, then updates memory.
func (ix *Index) apply(ctx context.Context, batch []result, removed []string, problems []Problem) error {
	var replaced []string
	for _, r := range batch {
		if !r.touched {
			replaced = append(replaced, r.facts.Path)
		}
	}
	if len(replaced) > 0 || len(removed) > 0 {
		ix.mu.Lock()
		ix.backStoredView() // before the write: it reads the facts the view was built from
		ix.mu.Unlock()
	}
	w, err := beginWriter(ctx, ix.db)
	if err != nil {
		return err
	}
	if err := w.removeAll(replaced); err != nil {
		w.rollback()
		return err
	}
	for _, r := range batch {
		if r.touched {
			err = w.touch(r.facts)
		} else {
			err = w.put(r.facts)
		}
		if err != nil {
			w.rollback()
			return err
		}
	}
	for _, p := range removed {
		if err := w.remove(p); err != nil {
			w.rollback()
			return err
		}
	}
	if problems != nil {
		if err := w.setProblems(problems); err != nil {
			w.rollback()
			return err
		}
	}
	generation, err := w.commit()
	if err != nil {
		return err
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.committed(generation)
	if len(replaced) > 0 || len(removed) > 0 {
		ix.writes++
		if !ix.loaded && ix.view != nil {
			// A stored view whose facts could not be read: the next
			// view is built from the database's.
			ix.view = nil
		}
	}
	for _, r := range batch {
		p := r.facts.Path
		switch cur := ix.files[p]; {
		case r.touched && cur != nil:
			t := *cur
			t.Size, t.ModTime = r.facts.Size, r.facts.ModTime
			ix.files[p] = &t
		case r.touched:
		case !ix.loaded:
			// No view to derive: keep what the next refresh compares.
			ix.files[p] = r.facts.stamp()
		default:
			ix.noteChanged(p, cur)
			ix.files[p] = r.facts
		}
	}
	for _, p := range removed {
		if old := ix.files[p]; old != nil {
			if ix.loaded {
				ix.noteRemoved(p, old)
			}
			delete(ix.files, p)
		}
	}
	if problems != nil {
		ix.problems = map[string]Problem{}
		for _, p := range problems {
			ix.problems[p.File] = p
		}
	}
	return nil
}

// counts returns the fact counts and the number of files of the index:
// from the view when the facts are in memory (storing them if the refresh
// wrote), else from the database.
func (ix *Index) counts(ctx context.Context, wrote bool, change *countChange) (factCounts, int, error) {
	ix.mu.RLock()
	loaded, files := ix.loaded, len(ix.files)
	ix.mu.RUnlock()
	if !loaded && ix.opts.CountsFromStore {
		if c, ok, err := change.derive(ctx, ix); ok || err != nil {
			return c, files, err
		}
		c, err := ix.storedCounts(ctx)
		return c, files, err
	}
	v := ix.current()
	c := factCounts{Symbols: len(v.symbols), Edges: len(v.edges), Usages: len(v.usages)}
	ix.mu.RLock()
	generation, pending := ix.generation, ix.pending.size()
	ix.mu.RUnlock()
	if wrote && generation > 0 && pending == 0 {
		return c, len(v.files), storeCounts(ctx, ix.db, generation, c)
	}
	return c, len(v.files), nil
}

// problemsChanged reports whether the walk's problems differ from the
// stored ones.
func (ix *Index) problemsChanged(problems []Problem) bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if len(problems) != len(ix.problems) {
		return true
	}
	for _, p := range problems {
		if ix.problems[p.File] != p {
			return true
		}
	}
	return false
}
