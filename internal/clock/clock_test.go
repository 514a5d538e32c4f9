package clock

import (
	"testing"
	"time"
)

func TestFromEnv(t *testing.T) {
	for _, tc := range []struct {
		note, env string
		want      time.Time
		err       bool
	}{
		{note: "fixed", env: "2026-11-25T01:02:03Z", want: time.Date(2026, 11, 25, 1, 2, 3, 0, time.UTC)},
		{note: "offset is kept as the same instant", env: "2026-11-25T03:02:03+02:00", want: time.Date(2026, 11, 25, 1, 2, 3, 0, time.UTC)},
		{note: "not RFC 3339", env: "yesterday", err: true},
	} {
		t.Run(tc.note, func(t *testing.T) {
			t.Setenv(EnvVar, tc.env)
			got, err := Now()
			if tc.err {
				if err == nil {
					t.Fatalf("Now() = %v, want an error", got)
				}
				return
			}
			if err != nil || !got.Equal(tc.want) || got.Location() != time.UTC {
				t.Fatalf("Now() = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	t.Run("unset is the system clock", func(t *testing.T) {
		t.Setenv(EnvVar, "")
		now, err := FromEnv()
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(now()); d < 0 || d > time.Minute {
			t.Fatalf("unset clock is %v off the system clock", d)
		}
	})
}
