package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mcpc/mcpc/internal/clock"
	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/engine"
	"github.com/mcpc/mcpc/internal/memory"
	"github.com/mcpc/mcpc/internal/pathscope"
)

// memoryParams are the flags of `mcpc memory`: a person reviewing what
// memory learned (seed 002's human in the loop).
type memoryParams struct {
	*rootParams
	state  string
	format string
	by     string
	reason string
	bundle string
}

func newMemoryCommand(root *rootParams) *cobra.Command {
	p := &memoryParams{rootParams: root, format: "text", by: os.Getenv("USER")}
	cmd := &cobra.Command{
		Use:   "memory",
		Short: "Review memory records: list, show, approve, reject, expire-check",
		Long: `Memory records live in .ai/memory/records.json; every state change is
appended to .ai/memory/changelog.jsonl with who, when and why. The clock is
MCPC_NOW (RFC 3339) when set, else the system clock.`,
	}
	list := &cobra.Command{
		Use: "list", Short: "List records (text table or JSON)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return p.list(cmd.OutOrStdout()) },
	}
	list.Flags().StringVar(&p.state, "state", "", "only records in this state (pending, provisional, approved, rejected, expired, retired)")
	list.Flags().StringVar(&p.format, "format", p.format, "text or json")
	show := &cobra.Command{
		Use: "show ID", Short: "Print one record as JSON", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return p.show(cmd.OutOrStdout(), args[0]) },
	}
	approve := &cobra.Command{
		Use: "approve ID", Short: "Approve a pending or provisional record", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return p.review(cmd.OutOrStdout(), args[0], "approved") },
	}
	reject := &cobra.Command{
		Use: "reject ID", Short: "Reject a record; it stays rejected", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return p.review(cmd.OutOrStdout(), args[0], "rejected") },
	}
	reject.Flags().StringVar(&p.reason, "reason", "", "why (kept in the record and the changelog)")
	approve.Flags().StringVar(&p.reason, "reason", "", "why (kept in the record and the changelog)")
	expire := &cobra.Command{
		Use: "expire-check", Short: "Apply the clock's transitions lib/memory decides (JSON list of changes)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return p.expireCheck(cmd.Context(), cmd.OutOrStdout()) },
	}
	expire.Flags().StringVar(&p.bundle, "bundle", "", "policy bundle (default: the embedded policies)")
	for _, c := range []*cobra.Command{approve, reject, expire} {
		c.Flags().StringVar(&p.by, "by", p.by, "who makes the change (default $USER)")
	}
	cmd.AddCommand(list, show, approve, reject, expire)
	return cmd
}

func (p *memoryParams) resolver() (*pathscope.Resolver, error) {
	root, err := filepath.Abs(p.workspace)
	if err != nil {
		return nil, err
	}
	return pathscope.New(root)
}

func (p *memoryParams) list(w io.Writer) error {
	if p.format != "text" && p.format != "json" {
		return fmt.Errorf("--format is text or json, not %q", p.format)
	}
	res, err := p.resolver()
	if err != nil {
		return err
	}
	if p.format == "json" {
		return memory.WriteListJSON(w, res, p.state)
	}
	records, err := memory.List(res, p.state)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tTYPE\tTRIGGER\tANCHORS\tCODES\tUPDATED")
	for _, r := range records {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", dash(r.ID), dash(r.State), dash(r.EnforcementType),
			dash(r.Trigger), dash(strings.Join(r.DomainAnchorIDs, ",")), dash(strings.Join(r.RejectionCodes, ",")), dash(r.UpdatedAt))
	}
	return tw.Flush()
}

func (p *memoryParams) show(w io.Writer, id string) error {
	res, err := p.resolver()
	if err != nil {
		return err
	}
	records, err := memory.Load(res)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(records, func(r memory.Record) bool { return r["id"] == id })
	if i < 0 {
		return fmt.Errorf("%w: %s", memory.ErrNotFound, id)
	}
	return writeJSON(w, records[i])
}

func (p *memoryParams) review(w io.Writer, id, to string) error {
	if strings.TrimSpace(p.by) == "" {
		return fmt.Errorf("--by is required when $USER is not set")
	}
	res, err := p.resolver()
	if err != nil {
		return err
	}
	now, err := clock.Now()
	if err != nil {
		return err
	}
	change, err := memory.Review(res, id, to, p.by, p.reason, now)
	if err != nil {
		return err
	}
	return writeJSON(w, change)
}

// expireCheck asks lib/memory which transitions the clock has made and
// applies them under the records lock.
func (p *memoryParams) expireCheck(ctx context.Context, w io.Writer) error {
	res, err := p.resolver()
	if err != nil {
		return err
	}
	cfg, err := config.Load(res.Root())
	if err != nil {
		return err
	}
	now, err := clock.Now()
	if err != nil {
		return err
	}
	eng, err := engine.New(ctx, engine.Options{BundlePath: p.bundle})
	if err != nil {
		return err
	}
	by := p.by
	if by == "" {
		by = "mcpc"
	}
	decide := func(records []memory.Record) ([]memory.Transition, error) {
		doc := memory.NewPolicyDoc(nil, now, cfg.Memory)
		doc.Enforcement.Memories = records // every record: the bound is a turn's
		var out struct {
			Transitions []memory.Transition `json:"transitions"`
		}
		if err := eng.EvaluateQuery(ctx, engine.LifecycleQuery, doc, &out); err != nil {
			return nil, err
		}
		return out.Transitions, nil
	}
	changes, err := memory.ExpireCheck(res, decide, by, now)
	if err != nil {
		return err
	}
	return writeJSON(w, changes)
}

// dash is a listing's cell: "-" for nothing.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
