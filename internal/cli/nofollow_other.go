//go:build !unix

package cli

const noFollow = 0
