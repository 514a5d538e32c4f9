package requirements

import "testing"

func TestSpecNameDropsCredentials(t *testing.T) {
	for _, tc := range []struct{ note, in, want string }{
		{"a workspace file", "api/orders.yaml", "api/orders.yaml"},
		{"a plain URL", "https://api.example.com/openapi.json", "https://api.example.com/openapi.json"},
		{"user info and a query token", "https://bob:hunter2@api.example.com/openapi.json?token=s3cret#x", "https://api.example.com/openapi.json"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := specName(tc.in); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
