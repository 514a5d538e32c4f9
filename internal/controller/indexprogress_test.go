package controller

import (
	"context"
	"reflect"
	"testing"
)

type recordedProgress struct {
	done, total []float64
	messages    []string
}

func (r *recordedProgress) Progress(_ context.Context, done, total float64, message string) {
	r.done, r.total, r.messages = append(r.done, done), append(r.total, total), append(r.messages, message)
}

func TestIndexProgress(t *testing.T) {
	if IndexProgress(withIndexProgress(context.Background(), 0, 3)) != nil {
		t.Fatal("a turn without a progress reporter has an index progress callback")
	}
	rec := &recordedProgress{}
	report := IndexProgress(withIndexProgress(WithProgress(context.Background(), rec), 0, 3))
	// The indexer reports what it found up to date, then each batch; a
	// repeated or empty report says nothing new.
	for _, c := range [][2]int{{0, 599}, {256, 599}, {256, 599}, {512, 599}, {599, 599}, {0, 0}} {
		report(c[0], c[1])
	}
	if want := []float64{256.0 / 600, 512.0 / 600, 599.0 / 600}; !reflect.DeepEqual(rec.done, want) {
		t.Errorf("done = %v, want %v", rec.done, want)
	}
	if want := []string{"indexed 256 of 599 files", "indexed 512 of 599 files", "indexed 599 of 599 files"}; !reflect.DeepEqual(rec.messages, want) {
		t.Errorf("messages = %q, want %q", rec.messages, want)
	}
	for _, total := range rec.total {
		if total != 3 {
			t.Errorf("total = %v, want the turn's 3 steps", total)
		}
	}
}
