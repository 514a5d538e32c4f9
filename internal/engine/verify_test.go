package engine

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ecKey writes a P-256 key pair and returns the private key file and the
// public key's PEM text.
func ecKey(t *testing.T) (privateFile, public string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	privateFile = filepath.Join(t.TempDir(), "key.pem")
	if err := os.WriteFile(privateFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return privateFile, string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}))
}

// TestVerifiedBundles: with a key configured, a bundle loads only when its
// .signatures.json verifies with that key, for its algorithm, key id and
// scope, and every file matches its signed digest.
func TestVerifiedBundles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.rego"), []byte("package mcpc.main\n\ndecision := {\"allow\": true}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	priv, pub := ecKey(t)
	otherPriv, _ := ecKey(t)
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("a shared secret of some length"), 0o600); err != nil {
		t.Fatal(err)
	}
	build := func(sign *Signing) string {
		var buf bytes.Buffer
		if _, err := WriteBundle(dir, &buf, sign); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "b.tar.gz")
		if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return out
	}
	signed := build(&Signing{Key: priv, Algorithm: "ES256"})
	for _, tc := range []struct {
		note   string
		bundle string
		verify Verification
		fail   string // "" when the bundle must load
	}{
		{"signed with the key", signed, Verification{Key: pub, Algorithm: "ES256"}, ""},
		{"unsigned", build(nil), Verification{Key: pub, Algorithm: "ES256"}, "signature"},
		{"another key", build(&Signing{Key: otherPriv, Algorithm: "ES256"}), Verification{Key: pub, Algorithm: "ES256"}, "signature"},
		// The configured key id picks the key, whatever kid the bundle names
		// (as OPA does): the key decides, not its label.
		{"the key under another kid", build(&Signing{Key: priv, Algorithm: "ES256", KeyID: "other"}), Verification{Key: pub, Algorithm: "ES256"}, ""},
		{"the scope required", build(&Signing{Key: priv, Algorithm: "ES256", Scope: "write"}), Verification{Key: pub, Algorithm: "ES256", Scope: "write"}, ""},
		{"another scope", build(&Signing{Key: priv, Algorithm: "ES256", Scope: "read"}), Verification{Key: pub, Algorithm: "ES256", Scope: "write"}, "scope"},
		{"an HMAC secret", build(&Signing{Key: secret, Algorithm: "HS256"}), Verification{Key: "a shared secret of some length", Algorithm: "HS256"}, ""},
		{"an unknown algorithm", signed, Verification{Key: pub, Algorithm: "XX999"}, "unsupported"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			_, err := New(ctx, Options{BundlePath: tc.bundle, Verify: &tc.verify})
			switch {
			case tc.fail == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case tc.fail != "" && (err == nil || !strings.Contains(err.Error(), tc.fail)):
				t.Fatalf("err %v, want one saying %q", err, tc.fail)
			}
		})
	}
}
