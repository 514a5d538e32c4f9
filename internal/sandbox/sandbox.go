// Package sandbox runs the commands mcpc starts on an agent's behalf
// (validation commands, git and the repository hooks git runs) in an OS
// sandbox made with bubblewrap (bwrap). Such a command runs code an agent
// may have written, so it must not see more than the agent may: the
// sandbox holds the system's programs and libraries read-only, the
// worktree read-only with secret files, mcpc's own files and git's
// internals masked, a private /tmp as HOME, a scrubbed environment, no
// capabilities, its own PID namespace (mcpc's /proc/PID/environ is not
// there) and no network unless configuration grants it.
//
// Where no sandbox can be made (bwrap is missing or fails its self-test),
// a Sandbox says so (Available, Reason); running commands then needs the
// explicit AllowUnsandboxed, and policy refuses them otherwise.
//
// Either way a command runs as the leader of a process group of its own
// (OwnProcessGroup), killed whole on timeout and when mcpc dies.
package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// BwrapEnv names the environment variable that overrides the bwrap binary
// (a path); tests point it at a missing file to simulate a machine where no
// sandbox can be made.
const BwrapEnv = "MCPC_SANDBOX_BWRAP"

// Home is HOME inside the sandbox: a private, empty tmpfs.
const Home = "/tmp"

// DefaultTmpBytes is the default size of the sandbox's /tmp: it is held in
// memory, and a command filling it must not fill the host's.
const DefaultTmpBytes = 512 << 20

// DefaultHidden are mcpc's own files and folders, relative to the worktree:
// its configuration (validation commands), state, memory, policies and
// trace ledger, and the MCP and agent client settings that decide what
// agents may run. A command in the sandbox neither reads nor writes them.
var DefaultHidden = []string{
	".ai/config", ".ai/graph/seed", ".ai/memory", ".ai/policies", ".ai/inbox", ".ai/tmp",
	".orchestration", ".mcp.json", ".claude", ".cursor", ".vscode/mcp.json",
}

// Options configures a Sandbox.
type Options struct {
	// Root is the worktree (required): bound read-only at its own path.
	Root string
	// Bwrap is the bwrap program. Default: $MCPC_SANDBOX_BWRAP, else bwrap
	// on PATH.
	Bwrap string
	// Network keeps the host's network (default: none, only a loopback
	// of the sandbox's own).
	Network bool
	// Env names variables of mcpc's environment passed into the sandbox
	// besides PATH and LANG.
	Env []string
	// ReadOnlyPaths are host paths bound read-only besides the system's
	// (a toolchain installed outside /usr, say).
	ReadOnlyPaths []string
	// TmpBytes bounds the sandbox's /tmp (and HOME), a tmpfs held in
	// memory. Default DefaultTmpBytes.
	TmpBytes int64
	// Writable are worktree folders the command may write (build caches,
	// coverage reports), relative to Root. Default: none.
	Writable []string
	// Hidden are worktree paths masked in the sandbox. Default: DefaultHidden.
	Hidden []string
	// SecretGlobs returns the globs (lower case, "/" separated, as OPA's
	// glob.match) of files holding secrets, asked before each run so that
	// a policy bundle that changes them takes effect.
	SecretGlobs func() []string
	// KeyMaterial finds secrets by content in files of at most
	// keyScanBytes whose name gives nothing away (a *regexp.Regexp is
	// one). Optional: default none.
	KeyMaterial KeyMatcher
	// ScanCache keeps KeyMaterial's verdicts, by file stamp, between
	// processes. Optional: default, each process reads every small file
	// of the worktree on its first command.
	ScanCache ScanCache
	// AllowUnsandboxed lets Command run commands without a sandbox when
	// none can be made. Default false: Command refuses.
	AllowUnsandboxed bool
}

// Sandbox makes sandboxed commands for one worktree. It is safe for
// concurrent use.
type Sandbox struct {
	opts   Options
	bwrap  string
	reason string
	masks  *masker
	mu     sync.Mutex
}

// Mode says how commands run: "sandboxed", "unsandboxed" (no sandbox could
// be made and configuration allows running without), or "refused".
func (s *Sandbox) Mode() string {
	switch {
	case s.Available():
		return "sandboxed"
	case s.opts.AllowUnsandboxed:
		return "unsandboxed"
	}
	return "refused"
}

// Available says whether commands run in a sandbox.
func (s *Sandbox) Available() bool { return s.bwrap != "" }

// Reason says why no sandbox can be made ("" when one can).
func (s *Sandbox) Reason() string { return s.reason }

// AllowUnsandboxed is Options.AllowUnsandboxed.
func (s *Sandbox) AllowUnsandboxed() bool { return s.opts.AllowUnsandboxed }

// New prepares a Sandbox and proves it with a self-test: bwrap must run a
// command with every isolation this package asks for. It never fails; a
// Sandbox that could not be made says why in Reason.
func New(opts Options) *Sandbox {
	if opts.Hidden == nil {
		opts.Hidden = DefaultHidden
	}
	if opts.TmpBytes <= 0 {
		opts.TmpBytes = DefaultTmpBytes
	}
	s := &Sandbox{opts: opts, masks: newMasker(opts.Root, opts.KeyMaterial, opts.ScanCache)}
	bwrap := opts.Bwrap
	if bwrap == "" {
		bwrap = os.Getenv(BwrapEnv)
	}
	if bwrap == "" {
		bwrap = "bwrap"
	}
	path, err := exec.LookPath(bwrap)
	if err != nil {
		s.reason = fmt.Sprintf("bubblewrap (%s) is not installed: %v", bwrap, err)
		return s
	}
	s.bwrap = path
	if err := s.selfTest(); err != nil {
		s.bwrap = ""
		s.reason = "bubblewrap (" + path + ") cannot make a sandbox here: " + err.Error()
	}
	return s
}

// selfTest runs true in a sandbox such as Command makes, with the worktree's
// secret masks replaced by one file and one folder masked the same way
// under the sandbox's /tmp: it proves bwrap makes every kind of isolation
// Command asks for without walking the worktree, which at 48,000 files
// cost seconds of a new process's start. Dropping the tree's masks here
// loses nothing: each Command walks for them, and a mask bwrap could not
// make fails that command before it runs.
func (s *Sandbox) selfTest() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd, err := s.command(ctx, Run{Argv: []string{"true"}}, selfTestMasks)
	if err != nil {
		return err
	}
	defer cmd.Close()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(out.String()))
	}
	return nil
}

// Run is one command to run.
type Run struct {
	Argv []string
	// Dir is where it runs, relative to Root ("" is Root).
	Dir string
	// Git makes the repository's git folder visible and writable (but its
	// config and hooks read-only): git commit needs it, and the hooks it
	// runs then see it too.
	Git bool
}

// Cmd is a command Command made: the exec.Cmd to run, and the files it
// hands bwrap. Close it once the command ended (or failed to start).
type Cmd struct {
	*exec.Cmd
	files []*os.File
}

// Close releases the files Command opened for the command.
func (c *Cmd) Close() { closeAll(c.files) }

// ErrUnavailable is Command's error when no sandbox can be made and
// running without one is not allowed.
var ErrUnavailable = errors.New("no sandbox can be made and sandbox.allowUnsandboxed is not set")

// Command makes the command for run: bwrap wrapping it when a sandbox is
// available, the bare command when it is not and AllowUnsandboxed is set,
// else ErrUnavailable. The caller sets Stdout, Stderr and the process
// group handling, runs it, and closes it.
func (s *Sandbox) Command(ctx context.Context, run Run) (*Cmd, error) {
	return s.command(ctx, run, s.secretMasks)
}

// command is Command with the secret masks' arguments from masks.
func (s *Sandbox) command(ctx context.Context, run Run, masks func(skip []string) ([]string, error)) (*Cmd, error) {
	if len(run.Argv) == 0 {
		return nil, errors.New("sandbox: empty command")
	}
	dir := s.opts.Root
	if run.Dir != "" {
		dir = filepath.Join(s.opts.Root, filepath.FromSlash(run.Dir))
	}
	if !s.Available() {
		if !s.opts.AllowUnsandboxed {
			return nil, fmt.Errorf("%w (%s)", ErrUnavailable, s.reason)
		}
		cmd := exec.CommandContext(ctx, run.Argv[0], run.Argv[1:]...)
		cmd.Dir = dir
		return &Cmd{Cmd: cmd}, nil
	}
	etc, err := etcPipes()
	if err != nil {
		return nil, fmt.Errorf("sandbox: the synthetic /etc: %w", err)
	}
	args, err := s.args(run, dir, masks)
	if err != nil {
		closeAll(etc)
		return nil, err
	}
	cmd := exec.CommandContext(ctx, s.bwrap, append(args, run.Argv...)...)
	cmd.Dir = s.opts.Root
	// bwrap itself needs no environment; what the command gets is set
	// with --setenv.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	// They are the child's descriptors 3, 4, ... (args names them so);
	// bwrap reads and closes each before the command runs.
	cmd.ExtraFiles = etc
	return &Cmd{Cmd: cmd, files: etc}, nil
}

// systemDirs are bound read-only when they are folders and recreated when
// they are symbolic links (usrmerge's /bin -> usr/bin).
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}

// systemEtc are the host's /etc entries programs need to start and find
// each other; the rest of /etc (passwd, shadow, hostname, ...) is not
// there or is synthetic.
var systemEtc = []string{"/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime"}

// networkEtc are bound only when the network is granted.
var networkEtc = []string{"/etc/resolv.conf", "/etc/ssl/certs", "/etc/ca-certificates", "/etc/ca-certificates.conf", "/etc/gai.conf"}

// args are bwrap's arguments for run, up to the command.
func (s *Sandbox) args(run Run, dir string, masks func(skip []string) ([]string, error)) ([]string, error) {
	a := []string{"--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"}
	if s.opts.Network {
		a = append(a, "--share-net")
	}
	a = append(a, "--clearenv", "--setenv", "PATH", os.Getenv("PATH"), "--setenv", "HOME", Home, "--setenv", "TMPDIR", "/tmp")
	for _, name := range append([]string{"LANG"}, s.opts.Env...) {
		if v, ok := os.LookupEnv(name); ok && name != "" {
			a = append(a, "--setenv", name, v)
		}
	}
	for _, d := range systemDirs {
		info, err := os.Lstat(d)
		switch {
		case err != nil:
		case info.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(d)
			if err != nil {
				return nil, err
			}
			a = append(a, "--symlink", target, d)
		case info.IsDir():
			a = append(a, "--ro-bind", d, d)
		}
	}
	for _, p := range systemEtc {
		a = append(a, "--ro-bind-try", p, p)
	}
	for i, name := range etcNames {
		a = append(a, "--ro-bind-data", strconv.Itoa(3+i), "/etc/"+name)
	}
	if s.opts.Network {
		for _, p := range networkEtc {
			a = append(a, "--ro-bind-try", p, p)
		}
	}
	for _, p := range s.opts.ReadOnlyPaths {
		a = append(a, "--ro-bind-try", p, p)
	}
	a = append(a, "--proc", "/proc", "--dev", "/dev", "--size", strconv.FormatInt(s.opts.TmpBytes, 10), "--tmpfs", "/tmp")
	root := s.opts.Root
	a = append(a, "--ro-bind", root, root)
	for _, w := range s.opts.Writable {
		p := filepath.Join(root, filepath.FromSlash(w))
		if info, err := os.Lstat(p); err == nil && info.IsDir() && s.writable(w) {
			a = append(a, "--bind", p, p)
		}
	}
	gitArgs, gitPaths, err := gitBinds(root, run.Git)
	if err != nil {
		return nil, err
	}
	a = append(a, gitArgs...)
	hidden := s.opts.Hidden
	if !run.Git {
		hidden = append(slices.Clone(hidden), ".git")
	}
	for _, h := range hidden {
		a = append(a, maskArgs(filepath.Join(root, filepath.FromSlash(h)))...)
	}
	secrets, err := masks(append(slices.Clone(hidden), gitPaths...))
	if err != nil {
		return nil, err
	}
	return append(append(a, secrets...), "--chdir", dir, "--"), nil
}

// secretMasks are the arguments masking the worktree's secret files, the
// paths in skip aside (masked whole).
func (s *Sandbox) secretMasks(skip []string) ([]string, error) {
	secrets, err := s.masks.secrets(s.secretGlobs(), skip)
	if err != nil {
		return nil, fmt.Errorf("sandbox: looking for secret files: %w", err)
	}
	var a []string
	for _, p := range secrets {
		a = append(a, maskArgs(p)...)
	}
	return a, nil
}

// selfTestMasks mask a file and a folder bwrap makes in the sandbox's own
// /tmp, as secretMasks masks the worktree's.
func selfTestMasks([]string) ([]string, error) {
	const file, dir = Home + "/.mcpc-self-test-file", Home + "/.mcpc-self-test-dir"
	return []string{"--ro-bind", "/dev/null", file, "--dir", dir, "--tmpfs", dir, "--remount-ro", dir}, nil
}

func (s *Sandbox) secretGlobs() []string {
	if s.opts.SecretGlobs == nil {
		return nil
	}
	return s.opts.SecretGlobs()
}

// maskArgs hide what is at p: an empty read-only folder over a folder,
// /dev/null (read-only) over a file. A symbolic link is left alone: its
// target is either outside the sandbox or masked itself.
func maskArgs(p string) []string {
	info, err := os.Lstat(p)
	switch {
	case err != nil || info.Mode()&os.ModeSymlink != 0:
		return nil
	case info.IsDir():
		return []string{"--tmpfs", p, "--remount-ro", p}
	}
	return []string{"--ro-bind", "/dev/null", p}
}

// writable says whether the worktree folder rel may be bound writable: a
// folder strictly inside the worktree that neither is nor holds one of
// the hidden paths or git's (a writable worktree root would let a command
// create the .mcp.json or .claude settings an agent's client then obeys).
func (s *Sandbox) writable(rel string) bool {
	rel = path.Clean(filepath.ToSlash(rel))
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || path.IsAbs(rel) {
		return false
	}
	for _, h := range append(slices.Clone(s.opts.Hidden), ".git") {
		if rel == h || strings.HasPrefix(rel, h+"/") || strings.HasPrefix(h, rel+"/") {
			return false
		}
	}
	return true
}

// MachineCannotSandbox says why this machine makes no bubblewrap sandbox
// at all (bwrap, or the one $MCPC_SANDBOX_BWRAP names, missing; no
// namespaces for it), nil when it can make the simplest one. Tests skip
// on such a machine; where it can, a Sandbox must work too.
func MachineCannotSandbox() error {
	bwrap := os.Getenv(BwrapEnv)
	if bwrap == "" {
		bwrap = "bwrap"
	}
	if _, err := exec.LookPath(bwrap); err != nil {
		return fmt.Errorf("bubblewrap (Debian package bubblewrap) is not installed: %w", err)
	}
	if out, err := exec.Command(bwrap, "--unshare-all", "--ro-bind", "/", "/", "true").CombinedOutput(); err != nil {
		return fmt.Errorf("bwrap cannot make namespaces on this machine: %v: %s", err, bytes.TrimSpace(out))
	}
	return nil
}
