package patch

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/grammar"
)

// template2000 is a 2,000-line Angular template: control flow, bindings and
// an adp-alert every tenth line.
func template2000() string {
	var b strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "@if (rows[%d]) {\n", i)
		fmt.Fprintf(&b, "  <section class=\"row\" [class.active]=\"active === %d\">\n", i)
		fmt.Fprintf(&b, "    <adp-alert type=\"warning\" [message]=\"messages[%d]\" (closed)=\"hide(%d)\"></adp-alert>\n", i, i)
		b.WriteString("    <p>{{ row.title }} <span>{{ row.total | currency }}</span></p>\n")
		b.WriteString("    @for (item of row.items; track item.id) {\n")
		b.WriteString("      <app-item [item]=\"item\"></app-item>\n")
		b.WriteString("    }\n")
		b.WriteString("  </section>\n")
		b.WriteString("}\n")
		fmt.Fprintf(&b, "<!-- row %d -->\n", i)
	}
	return b.String()
}

// benchPatch applies edits to content and hashes before and after, as the
// controller's write does.
func benchPatch(b *testing.B, file, content string, edits []Edit) {
	b.SetBytes(int64(len(content)))
	// A deadline, as the controller gives every patch.
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	start := cpuTime()
	for b.Loop() {
		_ = sha256.Sum256([]byte(content))
		out, probs := Apply(ctx, content, edits, Options{File: file})
		if len(probs) > 0 {
			b.Fatal(probs)
		}
		_ = sha256.Sum256([]byte(out))
	}
	// CPU time per op as well as wall time: on a shared 2-core machine
	// the wall figure mostly measures the other tenants.
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func BenchmarkReplaceText2000Lines(b *testing.B) {
	src := template2000()
	benchPatch(b, "big.component.html", src, []Edit{{Op: "replace_text", Find: "messages[150]", Replace: "notes[150]"}})
}

func BenchmarkRewriteTemplateTag2000Lines(b *testing.B) {
	src := template2000()
	benchPatch(b, "big.component.html", src, []Edit{{Op: "codemod", Codemod: "rewrite_template_tag", Params: map[string]any{
		"fromTag": "adp-alert", "toTag": "sdf-alert", "propMappings": map[string]any{"type": "severity", "closed": "dismissed"},
	}}})
}

func BenchmarkRenameIdentifier2000Lines(b *testing.B) {
	var s strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&s, "export function total%d(rows: OrderSummary[]): number {\n  // OrderSummary rows\n  return rows.reduce((n, r) => n + r.total, 0);\n}\n\n", i)
	}
	benchPatch(b, "orders.ts", s.String(), []Edit{{Op: "codemod", Codemod: "rename_identifier_in_file", Params: map[string]any{"from": "OrderSummary", "to": "OrderRow"}}})
}

// BenchmarkTreeSitterHTMLParse2000Lines is why templates are not read with
// tree-sitter (markup.go): its HTML parse of the 2,000-line template alone
// costs more than the 5 ms a whole patch may take. BenchmarkMarkupScan2000Lines
// is the tokenizer pass that replaced it.
func BenchmarkTreeSitterHTMLParse2000Lines(b *testing.B) {
	src := []byte(template2000())
	ctx := context.Background()
	start := cpuTime()
	for b.Loop() {
		tree, err := parse(ctx, grammar.HTML, src)
		if err != nil {
			b.Fatal(err)
		}
		tree.Close()
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

func BenchmarkMarkupScan2000Lines(b *testing.B) {
	src := []byte(template2000())
	ctx := context.Background()
	start := cpuTime()
	for b.Loop() {
		if err := scanMarkup(ctx, src, func(markupToken) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}
