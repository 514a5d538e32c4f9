package controller

import "testing"

// TestKeyMaterialMatchesAsItsPattern holds the prefilter to its promise: it
// never turns away content the pattern matches.
func TestKeyMaterialMatchesAsItsPattern(t *testing.T) {
	tests := []struct {
		note    string
		content string
		want    bool
	}{
		{note: "PEM private key", content: "x\n-----BEGIN RSA PRIVATE KEY-----\nMIIB", want: true},
		{note: "PEM public key", content: "-----BEGIN PUBLIC KEY-----\n", want: false},
		{note: "aws credentials file", content: "[default]\naws_secret_access_key = abc", want: true},
		{note: "upper case env", content: "export AWS_SECRET_ACCESS_KEY=abc", want: true},
		{note: "mixed case, colon", content: "Aws_Secret_Access_Key: abc", want: true},
		{note: "long s folds into s", content: "aws_\u017fecret_access_key=abc", want: true},
		{note: "kelvin sign folds into k", content: "aws_secret_access_\u212aey=abc", want: true},
		{note: "name without a value", content: "aws_secret_access_key", want: false},
		{note: "name at the very start", content: "aws_secret_access_key=1", want: true},
		{note: "underscores only", content: "_ __ a_b c_d_e", want: false},
		{note: "source code", content: "func main() { fmt.Println(\"hello_world\") }", want: false},
		{note: "empty", content: "", want: false},
	}
	for _, tc := range tests {
		t.Run(tc.note, func(t *testing.T) {
			b := []byte(tc.content)
			if got := keyMaterial.Match(b); got != tc.want {
				t.Errorf("Match = %v, want %v", got, tc.want)
			}
			if got, pattern := keyMaterial.Match(b), keyMaterial.pattern.Match(b); got != pattern {
				t.Errorf("Match = %v but the pattern says %v", got, pattern)
			}
		})
	}
}

func BenchmarkKeyMaterialSource(b *testing.B) {
	src := []byte{}
	for len(src) < 64<<10 {
		src = append(src, "export function load_user(id: string) { return store.get(id) } // see user_profile\n"...)
	}
	b.Run("pattern", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			keyMaterial.pattern.Match(src)
		}
	})
	b.Run("matcher", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			keyMaterial.Match(src)
		}
	})
}
