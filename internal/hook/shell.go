package hook

import "strings"

// shellCommand is a shell command split into simple commands. It is a
// deliberately small reading of POSIX shell: words, quotes, the control
// operators ; & | && || and redirections. What it cannot see into (command
// substitution) or cannot split (an open quote) is reported as a fact, and
// policy asks a person.
type shellCommand struct {
	Command      string         `json:"command"`
	Parsed       bool           `json:"parsed"`
	Substitution bool           `json:"substitution"`
	Segments     []shellSegment `json:"segments"`
}

type shellSegment struct {
	Argv      []string `json:"argv"`
	Redirects []string `json:"redirects"` // files written by > and >>
	Inputs    []string `json:"inputs"`    // files read by <
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
	cur := shellSegment{Argv: []string{}, Redirects: []string{}, Inputs: []string{}}
	flush := func() {
		if len(cur.Argv) > 0 || len(cur.Redirects) > 0 || len(cur.Inputs) > 0 {
			sc.Segments = append(sc.Segments, cur)
		}
		cur = shellSegment{Argv: []string{}, Redirects: []string{}, Inputs: []string{}}
	}
	for i := 0; i < len(tokens); i++ {
		t := tokens[i]
		switch {
		case t.op && (t.text == ";" || t.text == "&" || t.text == "|" || t.text == "&&" || t.text == "||" || t.text == "\n"):
			flush()
		case t.op && (t.text == ">" || t.text == ">>" || t.text == "<"):
			if i+1 >= len(tokens) || tokens[i+1].op {
				sc.Parsed = false
				return sc
			}
			i++
			if t.text == "<" {
				cur.Inputs = append(cur.Inputs, tokens[i].text)
			} else {
				cur.Redirects = append(cur.Redirects, tokens[i].text)
			}
		case t.op: // a descriptor duplication such as 2>&1 writes no file
		default:
			// leading VAR=value assignments are not the program
			if len(cur.Argv) == 0 && isAssignment(t.text) {
				continue
			}
			cur.Argv = append(cur.Argv, t.text)
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
}

// tokenize splits cmd into words and operators; false on an open quote.
func tokenize(cmd string) ([]token, bool) {
	var (
		out    []token
		word   strings.Builder
		inWord bool
	)
	end := func() {
		if inWord {
			out = append(out, token{text: word.String()})
			word.Reset()
			inWord = false
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
				inWord = false
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
			word.WriteByte(c)
			inWord = true
		}
	}
	end()
	return out, true
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
