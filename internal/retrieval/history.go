package retrieval

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Commit is one commit of the workspace's history: its subject and the
// files it changed.
type Commit struct {
	Subject string
	Files   []string
}

// ticketDepth is how many of the latest commits the ticket lane reads:
// enough to hold the earlier commits of a ticket worked on for weeks, few
// enough for git to list in tens of milliseconds.
const ticketDepth = 300

// HistoryNeeded is how many of the latest commits the history lanes use
// for prompt: the ticket lane's depth when the prompt names a ticket, else
// the co-change lane's (the recent lane reads the first recentDepth of
// them).
func HistoryNeeded(prompt string) int { return defaultTicketKeys.HistoryNeeded(prompt) }

// HistoryNeeded is the package's HistoryNeeded with tickets read by t (nil:
// the default pattern).
func (t *TicketKeys) HistoryNeeded(prompt string) int {
	if len(t.keys(prompt)) > 0 {
		return max(ticketDepth, coChangeDepth)
	}
	return max(recentDepth(), coChangeDepth)
}

// recentDepth is the number of latest commits the recent lane reads: the
// k-th gives its files 1/k, and past 1/faintContribution commits that is
// fainter than any lane may add and still count. The tail of the series
// still orders the files the text found (measured: reading only the
// commits whose files stand on their own, the first two at this weight,
// lost outline's and commons-lang's rank-10 boundary files, R@10 0.710 ->
// 0.685 and 0.713 -> 0.688).
func recentDepth() int { return int(math.Round(1 / faintContribution)) }

type historyKey struct{}

// WithHistory returns ctx carrying history for the ranking under it. A
// caller that knows the history better than the workspace's own git (the
// eval, whose trees are written from a mirror without a .git) sets it.
func WithHistory(ctx context.Context, history []Commit) context.Context {
	return context.WithValue(ctx, historyKey{}, history)
}

// HistoryFrom returns the history WithHistory put on ctx.
func HistoryFrom(ctx context.Context) ([]Commit, bool) {
	h, ok := ctx.Value(historyKey{}).([]Commit)
	return h, ok
}

// ReadHistory lists the latest n commits reachable from rev (HEAD when
// empty), newest first, with the files each changed. gitDir is the
// repository (a .git directory or a bare one), its paths from the top; or
// "" for the checkout dir is in, with paths from dir and only the commits
// that changed something under it. Merge commits are left out: their files
// are their branch's, listed by the branch's own commits, which are read
// too. Reading only the first-parent line lost them: where every change
// lands by a merged pull request (DSpace, flask) the first-parent line has
// no commit of its own for years, and the 300 latest first-parent
// non-merge commits of DSpace's main went back to 2016, flask's to 2013.
// The latest commits of every merged branch are the recent work.
func ReadHistory(ctx context.Context, dir, gitDir, rev string, n int) ([]Commit, error) {
	if rev == "" {
		rev = "HEAD"
	}
	args := []string{"log", "--no-merges", "--no-renames", fmt.Sprintf("-n%d", n), "--format=%x01%s", "--name-only"}
	if gitDir != "" {
		args = append([]string{"--git-dir=" + gitDir}, append(args, rev, "--")...)
	} else {
		// A workspace may be a folder of a larger repository (a package
		// of a monorepo): its index names files from dir, and only the
		// commits that changed something under it are its history.
		args = append(args, "--relative", rev, "--", ".")
	}
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	out := &cappedBuffer{max: maxHistoryBytes}
	cmd.Stdout, cmd.Stderr = out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git log: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	commits := parseHistory(out.Bytes())
	if out.cut && len(commits) > 0 {
		commits = commits[:len(commits)-1] // the last one's file list was cut
	}
	return commits, nil
}

// maxHistoryBytes bounds what ReadHistory keeps of git's output: a
// vendoring or formatting commit can name every file of a monorepo, and
// the lanes need the commits' files, not all of them at any cost (300
// ordinary commits list well under 100 KB).
const maxHistoryBytes = 2 << 20

// cappedBuffer keeps the first max bytes written to it and drops the rest,
// so a command's output costs bounded memory whatever it prints (the
// command still runs to its end, bounded by its -n and the context).
type cappedBuffer struct {
	bytes.Buffer
	max int
	cut bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.cut = true
		b.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

// HistoryCache holds the history one workspace's ranking read last, so a
// turn reads it again only when HEAD moved: git log costs tens of
// milliseconds (300 commits: about 80 CPU-ms), rev-parse a few.
type HistoryCache struct {
	mu      sync.Mutex
	head    string
	n       int
	commits []Commit
}

// Read is ReadHistory(ctx, dir, "", "", n), from the cache while dir's
// HEAD is the commit it was read at and it read at least n commits.
func (h *HistoryCache) Read(ctx context.Context, dir string, n int) ([]Commit, error) {
	cmd := exec.CommandContext(ctx, "git", "rev-parse", "--verify", "-q", "HEAD")
	cmd.Dir = dir
	raw, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git rev-parse HEAD: %w", err)
	}
	head := strings.TrimSpace(string(raw))
	h.mu.Lock()
	defer h.mu.Unlock()
	if head == h.head && n <= h.n {
		return h.commits[:min(n, len(h.commits))], nil
	}
	commits, err := ReadHistory(ctx, dir, "", head, n)
	if err != nil {
		return nil, err
	}
	h.head, h.n, h.commits = head, n, commits
	return commits, nil
}

// parseHistory reads `git log --format=%x01%s --name-only` output.
func parseHistory(out []byte) []Commit {
	var commits []Commit
	for _, chunk := range bytes.Split(out, []byte{1})[1:] {
		sc := bufio.NewScanner(bytes.NewReader(chunk))
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		var c Commit
		first := true
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if first {
				c.Subject, first = line, false
				continue
			}
			if line != "" {
				c.Files = append(c.Files, line)
			}
		}
		commits = append(commits, c)
	}
	return commits
}

// TicketKeys finds issue-tracker keys: DURACOM-347, LANG-1830, PROJ-12.
// A project that uses a tracker writes the key into every commit of the
// ticket, so the key is an exact name for the work, as a quoted string is
// for the text. A project whose tracker's keys look otherwise says so in
// connectors.jira.keyPattern, the pattern the requirements connector reads
// tickets by; the ranking reads them by the same (NewTicketKeys).
type TicketKeys struct {
	// inText finds a key anywhere: in a history commit's subject.
	inText *regexp.Regexp
	// inPrompt finds the keys a prompt is about: where trackers put them,
	// at its head ("[DURACOM-347] …", "LANG-1830: …") or bracketed ("…
	// (PROJ-12)"). UTF-8 or ISO-8601 in running text has a key's shape
	// and is a word of the task, not a ticket.
	inPrompt *regexp.Regexp
}

// DefaultTicketKeyPattern is connectors.jira.keyPattern's default.
const DefaultTicketKeyPattern = `[A-Z][A-Z0-9]+-\d+`

var defaultTicketKeys = mustTicketKeys(DefaultTicketKeyPattern)

// NewTicketKeys reads ticket keys by pattern (a key, unanchored, as
// connectors.jira.keyPattern spells it); "" is the default. A key is
// matched whole: DURACOM-347 is not DURACOM-3470.
func NewTicketKeys(pattern string) (*TicketKeys, error) {
	if pattern == "" {
		pattern = DefaultTicketKeyPattern
	}
	inText, err := regexp.Compile(`\b(?:` + pattern + `)\b`)
	if err != nil {
		return nil, fmt.Errorf("ticket key pattern: %w", err)
	}
	inPrompt, err := regexp.Compile(`(?:^\s*|[\[(])(` + pattern + `)\b`)
	if err != nil {
		return nil, fmt.Errorf("ticket key pattern: %w", err)
	}
	return &TicketKeys{inText: inText, inPrompt: inPrompt}, nil
}

func mustTicketKeys(pattern string) *TicketKeys {
	t, err := NewTicketKeys(pattern)
	if err != nil {
		panic(err)
	}
	return t
}

// or returns t, or the default keys when t is nil.
func (t *TicketKeys) or() *TicketKeys {
	if t == nil {
		return defaultTicketKeys
	}
	return t
}

// keys returns the ticket keys prompt names.
func (t *TicketKeys) keys(prompt string) []string {
	var keys []string
	for _, m := range t.or().inPrompt.FindAllStringSubmatch(prompt, -1) {
		keys = append(keys, m[1])
	}
	if k := numericTicket(prompt); k != "" {
		keys = append(keys, k)
	}
	return keys
}

// ticketLane gives the files earlier commits of the same ticket changed.
// "[DURACOM-347] fix missing label for library components" is the fourth
// commit of a ticket whose first three touched the files this one
// finishes; its words say little about where, its key says exactly. A file
// the ticket's commits touched often, or lately, counts more: each
// matching commit adds 1/(its place among them), newest first, and the
// lane is scaled so the best file has 1.
func ticketLane(prompt string, history []Commit, tickets *TicketKeys) map[string]float64 {
	keys := tickets.keys(prompt)
	out := map[string]float64{}
	if len(keys) == 0 {
		return out
	}
	place := 0
	for _, c := range history {
		if !tickets.holdsAny(c.Subject, keys) {
			continue
		}
		place++
		for _, f := range c.Files {
			out[f] += 1 / float64(place)
		}
	}
	return scaleToOne(out)
}

func (t *TicketKeys) holdsAny(subject string, keys []string) bool {
	if k := numericTicket(subject); k != "" && slices.Contains(keys, k) {
		return true
	}
	for _, k := range t.or().inText.FindAllString(subject, -1) {
		for _, want := range keys {
			if k == want {
				return true
			}
		}
	}
	return false
}

// recentLane gives the files the latest commits changed, the newest most:
// the k-th latest commit's files get 1/k. Work comes in series: a
// follow-up ("fix lint", "adds typedoc comments", "Javadoc: Remove
// obsolete comments") touches what the commits just before it touched,
// and its subject names nothing a text lane can find. The lane is a prior,
// weaker than any word of the prompt that matches (see laneWeights), so
// it orders what the text leaves open and fills a pack the text cannot.
func recentLane(history []Commit) map[string]float64 {
	out := map[string]float64{}
	for k, c := range history[:min(len(history), recentDepth())] {
		w := 1 / float64(k+1)
		for _, f := range c.Files {
			out[f] = max(out[f], w)
		}
	}
	return out
}

func scaleToOne(m map[string]float64) map[string]float64 {
	top := 0.0
	for _, v := range m {
		top = max(top, v)
	}
	for k, v := range m {
		m[k] = v / top
	}
	return m
}
