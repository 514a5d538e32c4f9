package hook

import (
	"slices"
	"strings"
)

// wrapper is the syntax of a command that only runs another one: `env
// -i rm -rf src` runs rm, and judging it as env (a safe command: alone it
// prints the environment) let any command through. The hook judges the
// command the wrapper runs; a wrapper whose options it cannot read (env
// -S splits a string into a command line, GNU time -o writes a file)
// leaves the command unparsed, which policy asks a person about.
type wrapper struct {
	// flags take no value; valued take one, attached (-n5, --signal=KILL)
	// or as the next word. Long options are listed without their value.
	flags, valued []string
	// operands is how many words after the options belong to the wrapper
	// (timeout's duration).
	operands int
	// assigns: NAME=value words after the options set variables (env).
	assigns bool
	// keepIf: with one of these options the wrapper runs nothing
	// (command -v names the program instead).
	keepIf []string
}

// wrappers are the commands that run their operand as a command, with
// their options as coreutils and bash document them. sudo, doas, xargs,
// watch and the like are not here: they are no safe command by default,
// so policy asks about them whatever they run.
var wrappers = map[string]wrapper{
	"env":     {flags: []string{"-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "-"}, valued: []string{"-u", "--unset"}, assigns: true},
	"command": {flags: []string{"-p"}, keepIf: []string{"-v", "-V"}},
	"exec":    {flags: []string{"-c", "-l"}, valued: []string{"-a"}},
	"nice":    {valued: []string{"-n", "--adjustment"}},
	"nohup":   {},
	"stdbuf":  {valued: []string{"-i", "-o", "-e", "--input", "--output", "--error"}},
	"timeout": {flags: []string{"--preserve-status", "--foreground", "-v", "--verbose"}, valued: []string{"-s", "--signal", "-k", "--kill-after"}, operands: 1},
	"time":    {flags: []string{"-p"}},
}

// unwrap replaces a segment's words by the command its wrappers run,
// recording each wrapper in Wrappers and env's assignments in
// Assignments; false when a wrapper's options cannot be read.
func unwrap(seg *shellSegment, words []token) bool {
	for len(words) > 0 {
		w, ok := wrappers[words[0].text]
		if !ok {
			break
		}
		n, ok := w.consumed(seg, words)
		if !ok {
			return false
		}
		if n == len(words) || n < 0 {
			break // nothing to run: the wrapper itself is the command
		}
		parts := make([]string, n)
		for i, t := range words[:n] {
			parts[i] = t.text
		}
		seg.Wrappers = append(seg.Wrappers, strings.Join(parts, " "))
		words = words[n:]
	}
	seg.words = words
	for _, t := range words {
		seg.Argv = append(seg.Argv, t.text)
	}
	return true
}

// consumed is how many words the wrapper's own syntax takes: -1 when it
// runs nothing (command -v), false when an option is not one it knows.
func (w wrapper) consumed(seg *shellSegment, words []token) (int, bool) {
	i := 1
	for i < len(words) {
		arg := words[i].text
		if arg == "--" {
			i++
			break
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" && !slices.Contains(w.flags, "-") {
			break
		}
		if slices.Contains(w.keepIf, arg) {
			return -1, true
		}
		if slices.Contains(w.flags, arg) {
			i++
			continue
		}
		name, _, attached := strings.Cut(arg, "=")
		switch {
		case slices.Contains(w.valued, name) && attached: // --signal=KILL
			i++
		case slices.Contains(w.valued, arg): // -n 5
			i += 2
		case len(arg) > 2 && arg[1] != '-' && slices.Contains(w.valued, arg[:2]): // -n5
			i++
		case len(arg) > 1 && arg[1] >= '0' && arg[1] <= '9' && words[0].text == "nice": // nice -5
			i++
		default:
			return 0, false
		}
	}
	for ; w.assigns && i < len(words) && isAssignment(words[i].text); i++ {
		seg.Assignments = append(seg.Assignments, words[i].text[:strings.IndexByte(words[i].text, '=')])
	}
	i += w.operands
	return min(i, len(words)), true
}
