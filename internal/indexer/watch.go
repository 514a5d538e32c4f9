package indexer

import "github.com/mcpc/mcpc/internal/fswatch"

// watchState is what a watching Index (Options.Watch) keeps between
// refreshes; under refreshMu.
//
// A walk stats every file to learn what changed: 48,000 files cost a
// serving process about 0.2 CPU-s per turn though nothing did. With a
// watcher, a directory whose listing was made while it was watched and
// that had no event since has the same entries with the same stats, so the
// walk takes its files as the last walk found them without a system call
// (walker.clean); and when no directory had an event and every directory
// was watched, the tree is as the last successful refresh left the index,
// which has nothing to do (quiet). Whenever the watcher cannot vouch
// (start-up, a lost event, a moved directory, a failed refresh), the
// refresh walks and stats everything, watching each directory before it
// reads it.
type watchState struct {
	w *fswatch.Watcher // nil until the first refresh, and while none could start
	// quiet is the summary of the last refresh that completed with every
	// directory watched; nil when the next must walk.
	quiet  *Summary
	closed bool // by Close: never start another
	quiets int  // refreshes answered from quiet (for tests)
}

// begin drains the watcher before a refresh walks: the directories to read
// again, and whether the watcher vouches for the others. It starts the
// watcher on the first call (and retries while none could start: a
// process may have used up fs.inotify.max_user_instances).
func (s *watchState) begin() (dirty map[string]bool, vouch bool) {
	if s.w == nil {
		if s.closed {
			return nil, false
		}
		w, err := fswatch.New()
		if err != nil {
			return nil, false
		}
		s.w = w
		return nil, false // nothing is watched yet: walk everything
	}
	dirty, vouch = s.w.Drain()
	if !vouch {
		s.quiet = nil
		if s.w.Reset() != nil {
			s.w.Close()
			s.w = nil
		}
	}
	return dirty, vouch
}

// failed forgets what the last Drain returned: the refresh that took it
// did not finish, so the next one walks everything.
func (s *watchState) failed() {
	s.quiet = nil
	if s.w != nil {
		s.w.Invalidate()
	}
}

// Close stops the index's file-system watcher, if it has one, and stores
// the view if it changed since it was last stored (Options.ViewCache). The
// index stays usable; its refreshes walk the whole tree from then on.
func (ix *Index) Close() error {
	ix.storeChangedView()
	ix.background.Wait()
	ix.refreshMu.Lock()
	defer ix.refreshMu.Unlock()
	ix.leaveStamps()
	ix.leaveListings()
	s := &ix.watched
	s.quiet, s.closed = nil, true
	if s.w == nil {
		return nil
	}
	err := s.w.Close()
	s.w = nil
	return err
}
