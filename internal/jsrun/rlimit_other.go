//go:build !linux

package jsrun

// limitMemory has no address-space limit to set here: the heap watch is
// the only memory cap (see the package doc).
func limitMemory(uint64) {}
