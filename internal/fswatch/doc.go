// Package fswatch tells a long-lived process which directories of a tree
// changed since it last asked, so that it need not stat every file of a
// large tree to learn that nothing did (see indexer.Options.Watch).
//
// A Watcher answers for a directory only while it can vouch for it: the
// directory was watched before it was read, and no event was lost since.
// Whenever it cannot (the kernel's queue overflowed, a watched directory
// was moved, a read failed, the platform has no watcher), Drain says so and
// the caller walks the whole tree again, as it would without a watcher.
//
// On Linux it reads inotify directly rather than through a library with an
// event goroutine (fsnotify): Drain reads the instance's queue until the
// kernel says it is empty, and the kernel queues an event before the
// system call that caused it returns, so a change that another process
// made before this one was asked to look (the write, then the request) is
// always in what Drain returns. An asynchronous reader could still hold it
// in flight, and the next turn would not see it.
package fswatch

import "errors"

// ErrUnsupported is New's error where no watcher is available.
var ErrUnsupported = errors.New("fswatch: no file-system watcher on this platform")
