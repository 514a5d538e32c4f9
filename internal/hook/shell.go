package hook

import "strings"

// shellCommand is a shell command split into simple commands. It is a
// deliberately small reading of POSIX shell: words, quotes, the control
// operators ; & | && || and redirections. What it cannot see into (command
// substitution) or cannot split (an open quote) is reported as a fact, and
// policy asks a person.
type shellCommand struct {
	Command      string `json:"command"`
	Parsed       bool   `json:"parsed"`
	Substitution bool   `json:"substitution"`
	// Expansion says a word expands a variable or a brace list ($HOME,
	// "${X}/y", {a,b}): the hook cannot know what the command will name.
	Expansion bool           `json:"expansion"`
	Segments  []shellSegment `json:"segments"`
}

type shellSegment struct {
	// Argv is the program the segment runs, with its arguments: after
	// the wrappers that only run another command (env, nice, timeout ...:
	// wrappers.go), which are listed in Wrappers.
	Argv      []string `json:"argv"`
	Redirects []string `json:"redirects"` // files written by > and >>
	Inputs    []string `json:"inputs"`    // files read by <
	// Assignments are the variables the segment sets for its program
	// (GIT_PAGER=... git log, env LD_PRELOAD=... ls), or for the shell
	// when it runs none (PATH=/tmp/x: a host's shell session persists
	// between commands): a variable can change what a safe command runs.
	Assignments []string `json:"assignments"`
	Wrappers    []string `json:"wrappers"`
	// words are Argv's words as written (their quoting), for the targets
	// a word names (globs, a home directory).
	words []token
}

func parseShell(cmd string) shellCommand {
	sc := shellCommand{Command: cmd, Segments: []shellSegment{}}
	if cmd == "" {
		return sc
	}
	sc.Substitution = strings.Contains(cmd, "$(") || strings.Contains(cmd, "`") || strings.Contains(cmd, "<(") || strings.Contains(cmd, ">(")
	tokens, ok := tokenize(cmd)
	sc.Parsed = ok
	if !ok {
		return sc
	}
	newSegment := func() shellSegment {
		return shellSegment{Argv: []string{}, Redirects: []string{}, Inputs: []string{}, Assignments: []string{}, Wrappers: []string{}}
	}
	cur := newSegment()
	var words []token
	flush := func() {
		if !unwrap(&cur, words) {
			sc.Parsed = false
		}
		if len(cur.Argv) > 0 || len(cur.Redirects) > 0 || len(cur.Inputs) > 0 || len(cur.Assignments) > 0 {
			sc.Segments = append(sc.Segments, cur)
		}
		cur, words = newSegment(), nil
	}
	for i := 0; i < len(tokens); i++ {
		t := tokens[i]
		sc.Expansion = sc.Expansion || t.expands
		switch {
		case t.op && (t.text == ";" || t.text == "&" || t.text == "|" || t.text == "&&" || t.text == "||" || t.text == "\n"):
			flush()
		case t.op && (t.text == ">" || t.text == ">>" || t.text == "<"):
			if i+1 >= len(tokens) || tokens[i+1].op {
				sc.Parsed = false
				return sc
			}
			i++
			sc.Expansion = sc.Expansion || tokens[i].expands
			if t.text == "<" {
				cur.Inputs = append(cur.Inputs, tokens[i].text)
			} else {
				cur.Redirects = append(cur.Redirects, tokens[i].text)
			}
		case t.op: // a descriptor duplication such as 2>&1 writes no file
		default:
			// leading VAR=value assignments are not the program
			if len(words) == 0 && isAssignment(t.text) {
				cur.Assignments = append(cur.Assignments, t.text[:strings.IndexByte(t.text, '=')])
				continue
			}
			words = append(words, t)
		}
	}
	flush()
	return sc
}

func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for _, r := range w[:eq] {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

type token struct {
	text string
	op   bool
	// What the shell does to the word besides removing its quotes: a $
	// outside single quotes expands a variable, an unquoted *, ? or [
	// makes it a pattern of file names, an unquoted leading ~ a home
	// directory.
	expands, glob, tilde bool
}

// tokenize splits cmd into words and operators; false on an open quote.
func tokenize(cmd string) ([]token, bool) {
	var (
		out    []token
		word   strings.Builder
		inWord bool
		cur    token // the word's flags
		brace  bool  // an unquoted { in the word
	)
	end := func() {
		if inWord {
			cur.text = word.String()
			out = append(out, cur)
			word.Reset()
			inWord, cur, brace = false, token{}, false
		}
	}
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(cmd[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			word.WriteString(cmd[i+1 : i+1+j])
			inWord, i = true, i+1+j
		case c == '"':
			j := i + 1
			for ; j < len(cmd) && cmd[j] != '"'; j++ {
				if cmd[j] == '\\' && j+1 < len(cmd) {
					j++
				} else if cmd[j] == '$' && expandsAt(cmd, j) {
					cur.expands = true
				}
			}
			if j >= len(cmd) {
				return nil, false
			}
			word.WriteString(strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(cmd[i+1 : j]))
			inWord, i = true, j
		case c == '\\' && i+1 < len(cmd):
			word.WriteByte(cmd[i+1])
			inWord, i = true, i+1
		case c == ' ' || c == '\t':
			end()
		case c == '\n' || c == ';' || c == '&' || c == '|' || c == '<' || c == '>':
			// a descriptor number right before > or <, as in 2>, belongs to the operator
			fd := inWord && (c == '>' || c == '<') && isDigits(word.String())
			if fd {
				word.Reset()
				inWord, cur, brace = false, token{}, false
			}
			end()
			op := string(c)
			if i+1 < len(cmd) && (cmd[i+1] == c && c != '<' && c != ';' && c != '\n') {
				op += string(c)
				i++
			}
			if (c == '>' || c == '<') && i+1 < len(cmd) && cmd[i+1] == '&' { // 2>&1, >&2
				j := i + 2
				for j < len(cmd) && (cmd[j] >= '0' && cmd[j] <= '9' || cmd[j] == '-') {
					j++
				}
				out = append(out, token{text: cmd[i:j], op: true})
				i = j - 1
				continue
			}
			out = append(out, token{text: op, op: true})
		default:
			switch {
			case c == '$' && expandsAt(cmd, i):
				cur.expands = true
			case c == '*' || c == '?' || c == '[':
				cur.glob = true
			case c == '~' && !inWord:
				cur.tilde = true
			case c == '{':
				brace = true
			case brace && (c == ',' || c == '.' && i > 0 && cmd[i-1] == '.'):
				// brace expansion ({a,b}, {1..3}) makes the word several
				// words the hook does not derive
				cur.expands = true
			}
			word.WriteByte(c)
			inWord = true
		}
	}
	end()
	return out, true
}

// expandsAt reports whether the $ at cmd[i] expands something: a name, a
// positional or special parameter, ${...}, $(...) or $((...)).
func expandsAt(cmd string, i int) bool {
	if i+1 >= len(cmd) {
		return false
	}
	c := cmd[i+1]
	return c == '_' || c == '{' || c == '(' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
		strings.IndexByte("@*#?!$-", c) >= 0
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
