// Package buildid names the running mcpc build, for caches whose contents
// depend on mcpc's code as well as on their inputs: the knowledge graph's
// sync stamp and the code index's stored view.
package buildid

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync"
)

// Identity names this build. The executable's stat changes with every
// build, which a module version alone (a development build's "(devel)")
// would not; a test binary is a build of its own.
var Identity = sync.OnceValue(func() string {
	var id strings.Builder
	if bi, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(&id, "%s %s %s %v;", bi.GoVersion, bi.Main.Path, bi.Main.Version, bi.Settings)
	}
	if exe, err := os.Executable(); err == nil {
		if info, err := os.Stat(exe); err == nil {
			fmt.Fprintf(&id, "%s %d %d", exe, info.Size(), info.ModTime().UnixNano())
		}
	}
	return id.String()
})
