//go:build linux

package controller

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/internal/sandbox"
)

// processCPU is the CPU time this process has used (user and system).
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSandboxCommandTree is what building a sandboxed command costs
// on the real tree MCPC_BENCH_TREE names (a copy: the key scan is kept in
// its state folder), in CPU time: new-cpu-ms a new process's sandbox
// (its self-test), first-command-cpu-ms its first Command (the walk for
// masks, reading what no kept scan answers), next-process-cpu-ms the
// first Command of a process after it, and cpu-ms/op a later Command of
// the same process.
func BenchmarkSandboxCommandTree(b *testing.B) {
	ws := os.Getenv("MCPC_BENCH_TREE")
	if ws == "" {
		b.Skip("MCPC_BENCH_TREE not set")
	}
	if err := sandbox.MachineCannotSandbox(); err != nil {
		b.Skip(err)
	}
	process := func() *Controller {
		paths, err := pathscope.New(ws)
		if err != nil {
			b.Fatal(err)
		}
		c := &Controller{root: ws, cfg: &config.Config{}, paths: paths, engine: dataOnly{}, redactor: noRedaction{}}
		c.sandbox = c.newSandbox()
		if !c.sandbox.Available() {
			b.Fatal(c.sandbox.Reason())
		}
		return c
	}
	command := func(c *Controller) {
		cmd, err := c.sandbox.Command(context.Background(), sandbox.Run{Argv: []string{"true"}})
		if err != nil {
			b.Fatal(err)
		}
		cmd.Close()
	}
	cpu := processCPU(b)
	c := process()
	created := processCPU(b)
	command(c)
	first := processCPU(b)
	command(process())
	next := processCPU(b)
	b.ResetTimer()
	for b.Loop() {
		command(c)
	}
	b.StopTimer()
	b.ReportMetric(float64((processCPU(b)-next).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64((created - cpu).Milliseconds()), "new-cpu-ms")
	b.ReportMetric(float64((first - created).Milliseconds()), "first-command-cpu-ms")
	b.ReportMetric(float64((next - first).Milliseconds()), "next-process-cpu-ms")
}
