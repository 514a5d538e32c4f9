package secrets

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
)

// identity names what a scan's findings depend on besides the content: the
// rule texts, the keyword overrides, how content is cut and capped, and the
// program that scans (gitleaks' matching code and this package's are in
// it). A Cache keeps verdicts only under the identity they were made
// with, so a new rule, a changed allowlist or a rebuilt mcpc scans again.
func (rs ruleSet) identity() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%d %d %d\n", programIdentity(), chunkBytes, MaxScanBytes, maxDecodeDepth)
	for _, text := range []string{rs.defaults, rs.own} {
		fmt.Fprintf(h, "%d\n%s\n", len(text), text)
	}
	ids := make([]string, 0, len(rs.overrides))
	for id := range rs.overrides {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		fmt.Fprintf(h, "%q %q\n", id, rs.overrides[id])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// programIdentity names this mcpc build, as the graph's sync stamp does:
// the module versions (gitleaks', Go's regexp) and the executable's stat,
// which changes with every build where a development build's version
// ("(devel)") would not.
var programIdentity = sync.OnceValue(func() string {
	var id strings.Builder
	if bi, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(&id, "%s %s %s %v;", bi.GoVersion, bi.Main.Path, bi.Main.Version, bi.Settings)
		for _, dep := range bi.Deps {
			fmt.Fprintf(&id, " %s@%s", dep.Path, dep.Version)
		}
		id.WriteByte(';')
	}
	if exe, err := os.Executable(); err == nil {
		if info, err := os.Stat(exe); err == nil {
			fmt.Fprintf(&id, "%s %d %d", exe, info.Size(), info.ModTime().UnixNano())
		}
	}
	return id.String()
})
