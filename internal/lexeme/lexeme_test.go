package lexeme

import "testing"

func TestReplace(t *testing.T) {
	tests := []struct {
		note, text, lexeme, replacement, want string
		n                                     int
	}{
		{"tag and closing tag", `<adp-alert type="x"></adp-alert>`, "adp-alert", "sdf-alert", `<sdf-alert type="x"></sdf-alert>`, 2},
		{"not inside a longer name", `<adp-alert-item></adp-alert-item> adp-alert`, "adp-alert", "sdf-alert", `<adp-alert-item></adp-alert-item> sdf-alert`, 1},
		{"not a suffix of a name", `adp-alert alert myalert alert_x`, "alert", "notice", `adp-alert notice myalert alert_x`, 1},
		{"identifier in code", `const total = subtotal + total;`, "total", "sum", `const sum = subtotal + sum;`, 2},
		{"replacement holds the lexeme", `a a a`, "a", "aa", `aa aa aa`, 3},
		{"empty lexeme", `abc`, "", "x", `abc`, 0},
		{"none", `abc`, "zzz", "x", `abc`, 0},
		{"lexeme edge not a word character", `x.foo(1); .foo`, ".foo", ".bar", `x.bar(1); .bar`, 2},
		{"unicode neighbours are word characters", `éalert alert`, "alert", "notice", `éalert notice`, 1},
		{"overlapping candidates", `aaa aa`, "aa", "b", `aaa b`, 1},
	}
	for _, tc := range tests {
		t.Run(tc.note, func(t *testing.T) {
			got, n := Replace(tc.text, tc.lexeme, tc.replacement)
			if got != tc.want || n != tc.n {
				t.Fatalf("got %q (%d), want %q (%d)", got, n, tc.want, tc.n)
			}
			if c := Count(tc.text, tc.lexeme); c != tc.n {
				t.Errorf("Count = %d, want %d", c, tc.n)
			}
		})
	}
}

func FuzzReplace(f *testing.F) {
	f.Add("<adp-alert></adp-alert>", "adp-alert", "sdf-alert")
	f.Add("a a", "a", "aa")
	f.Fuzz(func(t *testing.T, text, lexeme, replacement string) {
		got, n := Replace(text, lexeme, replacement)
		if n == 0 && got != text {
			t.Fatalf("no match but the text changed")
		}
		if want := len(text) + n*(len(replacement)-len(lexeme)); len(got) != want {
			t.Fatalf("length %d, want %d", len(got), want)
		}
	})
}
