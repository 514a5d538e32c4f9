package store

import (
	"context"
	"strings"
	"time"
)

// RetryBusy retries fn while SQLite reports the database busy. Processes
// that open a fresh database together race on switching it to WAL and on
// creating tables, and SQLite answers some of those races with an
// immediate SQLITE_BUSY that busy_timeout does not cover.
func RetryBusy(ctx context.Context, fn func() error) error {
	var err error
	for attempt := 0; attempt < 200; attempt++ {
		if err = fn(); err == nil || !strings.Contains(err.Error(), "SQLITE_BUSY") {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(5+attempt%20) * time.Millisecond):
		}
	}
	return err
}
