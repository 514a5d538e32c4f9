package patch

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
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
	ctx := context.Background()
	for b.Loop() {
		_ = sha256.Sum256([]byte(content))
		out, probs := Apply(ctx, content, edits, Options{File: file})
		if len(probs) > 0 {
			b.Fatal(probs)
		}
		_ = sha256.Sum256([]byte(out))
	}
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
