package bench

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"testing"
	"time"
)

// echoChildEnv makes the test binary a line echo process (see TestMain).
const echoChildEnv = "MCPC_BENCH_ECHO_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(echoChildEnv) != "" {
		r := bufio.NewReaderSize(os.Stdin, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				os.Exit(0)
			}
			os.Stdout.Write(line)
		}
	}
	os.Exit(m.Run())
}

// BenchmarkStdioFloor is the transport floor the stdio read-turn figures
// sit on: a child process that echoes each line, with a request and a
// reply of a read turn's sizes, over the same kind of pipes. Whatever this
// machine's scheduler adds to a pipe round trip (its p99 in particular)
// is in every stdio figure too.
func BenchmarkStdioFloor(b *testing.B) {
	loopLatency(b, echoRoundTrip(b))
}

// BenchmarkStdioFloorPaced is that echo after the paced benchmark's pause:
// what waking an idle machine adds to a round trip before any work is done
// (on this 2-vCPU VM, about 170 µs against 13 µs back to back).
func BenchmarkStdioFloorPaced(b *testing.B) {
	loopPaced(b, echoRoundTrip(b))
}

// echoRoundTrip starts the echo child and returns one timed round trip.
func echoRoundTrip(b *testing.B) func() time.Duration {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), echoChildEnv+"=1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); cmd.Wait() })
	msg := append(bytes.Repeat([]byte("x"), 8*1024), '\n') // a read turn's reply is ~8 KB
	lines := bufio.NewReaderSize(stdout, 1<<20)
	return func() time.Duration {
		start := time.Now()
		stdin.Write(msg)
		if _, err := lines.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
}
