//go:build !unix

package mcp

import (
	"io"
	"os"
)

// pollableStdin is stdin as it is where the poller cannot wait on it.
func pollableStdin() (stdin io.Reader, restore func()) { return os.Stdin, func() {} }
