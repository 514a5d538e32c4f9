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
		{note: "accented catalogue", content: "\"caf\u00e9_au_lait\": \"\u00e9t\u00e9\", \"AWS_\u00e9\": 1", want: false},
		{note: "accented catalogue holding a key", content: "\"caf\u00e9\": 1\nAWS_SECRET_ACCESS_KEY=x", want: true},
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

// FuzzKeyMaterial: the prefiltered matcher answers as its pattern on any
// content.
func FuzzKeyMaterial(f *testing.F) {
	for _, seed := range []string{"aws_secret_access_key=1", "AWS_\u017fECRET_ACCESS_\u212aEY: x", "-----BEGIN EC PRIVATE KEY-----", "caf\u00e9_x"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		if got, want := keyMaterial.Match(content), keyMaterial.pattern.Match(content); got != want {
			t.Fatalf("Match(%q) = %v, the pattern says %v", content, got, want)
		}
	})
}
