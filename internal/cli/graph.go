package cli

import (
	"context"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/graph"
)

func newGraphCommand(root *rootParams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "graph",
		Short: "GraphOps: sync the knowledge graph, export deltas, inventory tags, walk proof chains",
	}
	cmd.AddCommand(newGraphSyncCommand(root), newGraphExportCommand(root), newGraphInventoryCommand(root), newGraphChainCommand(root), newGraphFactsCommand(root))
	return cmd
}

type graphSyncParams struct {
	*rootParams
	full bool
}

func newGraphSyncCommand(root *rootParams) *cobra.Command {
	p := &graphSyncParams{rootParams: root}
	cmd := &cobra.Command{
		Use:   "sync",
		Short: "Refresh the index, create constraints, validate seeds and write the facts that changed (JSON summary)",
		Long: `Refreshes the code index, creates the graph's constraints and indexes,
validates every .ai/graph/seed/**/*.jsonl row, then writes the groups of
facts whose content changed since the last sync, in one transaction. One
invalid seed row fails the sync (file:line and the reason) and leaves the
graph as it was.`,
		RunE: func(cmd *cobra.Command, _ []string) error { return p.run(cmd.Context(), cmd) },
	}
	cmd.Flags().BoolVar(&p.full, "full", false, "rewrite every fact (drop and reload), not only what changed")
	return cmd
}

func (p *graphSyncParams) run(ctx context.Context, cmd *cobra.Command) error {
	g, err := app.OpenGraph(ctx, p.workspace)
	if err != nil {
		return err
	}
	defer g.Close()
	if _, err := g.Index.Refresh(ctx, nil); err != nil {
		return err
	}
	sum, err := graph.Sync(ctx, g.Store, g.Index, g.Options, p.full)
	if err != nil {
		return err
	}
	sum.Backend = g.Backend
	if sum.Counts, _, err = g.Store.Counts(ctx); err != nil {
		return err
	}
	return writeJSON(cmd.OutOrStdout(), sum)
}

type graphExportParams struct {
	*rootParams
	out string
}

func newGraphExportCommand(root *rootParams) *cobra.Command {
	p := &graphExportParams{rootParams: root, out: graph.ExportDir}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the facts changed since the last export as a JSONL delta (default .ai/graph/out/)",
		RunE:  func(cmd *cobra.Command, _ []string) error { return p.run(cmd.Context(), cmd) },
	}
	cmd.Flags().StringVar(&p.out, "out", p.out, "folder of the deltas; relative paths are under the workspace")
	return cmd
}

func (p *graphExportParams) run(ctx context.Context, cmd *cobra.Command) error {
	g, err := app.OpenGraph(ctx, p.workspace)
	if err != nil {
		return err
	}
	defer g.Close()
	if _, err := g.Index.Refresh(ctx, nil); err != nil {
		return err
	}
	seeds, err := graph.LoadSeeds(g.Root)
	if err != nil {
		return err
	}
	facts, err := graph.Build(g.Index, seeds, g.Options)
	if err != nil {
		return err
	}
	out := p.out
	if !filepath.IsAbs(out) {
		out = filepath.Join(g.Root, out)
	}
	sum, err := graph.Export(facts, out, time.Now())
	if err != nil {
		return err
	}
	return writeJSON(cmd.OutOrStdout(), sum)
}

type graphInventoryParams struct {
	*rootParams
	prefix string
}

func newGraphInventoryCommand(root *rootParams) *cobra.Command {
	p := &graphInventoryParams{rootParams: root, prefix: "adp-"}
	cmd := &cobra.Command{
		Use:   "inventory",
		Short: "Every tag with a prefix and its usages (file, line, domain anchor, app) as JSON, from the synced graph",
		RunE:  func(cmd *cobra.Command, _ []string) error { return p.run(cmd.Context(), cmd) },
	}
	cmd.Flags().StringVar(&p.prefix, "prefix", p.prefix, "tag prefix")
	return cmd
}

func (p *graphInventoryParams) run(ctx context.Context, cmd *cobra.Command) error {
	g, err := app.OpenGraph(ctx, p.workspace)
	if err != nil {
		return err
	}
	defer g.Close()
	inv, err := graph.Inventory(ctx, g.Store, p.prefix)
	if err != nil {
		return err
	}
	return writeJSON(cmd.OutOrStdout(), map[string]any{"prefix": p.prefix, "tags": inv})
}

type graphChainParams struct {
	*rootParams
	kinds []string
	files []string
	terms []string
	max   int
}

func newGraphChainCommand(root *rootParams) *cobra.Command {
	p := &graphChainParams{rootParams: root, kinds: []string{graph.ChainAgGrid, graph.ChainFederation}, max: 3}
	cmd := &cobra.Command{
		Use:   "chain",
		Short: "Walk the ag-Grid and federation proof chains on the synced graph (JSON)",
		RunE:  func(cmd *cobra.Command, _ []string) error { return p.run(cmd.Context(), cmd) },
	}
	cmd.Flags().StringSliceVar(&p.kinds, "kind", p.kinds, "chain kinds: ag-grid, federation")
	cmd.Flags().StringSliceVar(&p.files, "file", nil, "signal files: chains through them rank first")
	cmd.Flags().StringSliceVar(&p.terms, "term", nil, "signal terms: chains naming them rank first")
	cmd.Flags().IntVar(&p.max, "max", p.max, "chains per kind")
	return cmd
}

func (p *graphChainParams) run(ctx context.Context, cmd *cobra.Command) error {
	g, err := app.OpenGraph(ctx, p.workspace)
	if err != nil {
		return err
	}
	defer g.Close()
	req := graph.ChainRequest{Files: p.files, Terms: p.terms, Max: p.max}
	for _, k := range p.kinds {
		switch k {
		case graph.ChainAgGrid:
			req.AgGrid = true
		case graph.ChainFederation:
			req.Federation = true
		}
	}
	cb := &graph.ChainBuilder{Store: g.Store, Root: g.Root}
	chains, err := cb.Build(ctx, req)
	if err != nil {
		return err
	}
	if chains == nil {
		chains = []graph.Chain{}
	}
	return writeJSON(cmd.OutOrStdout(), map[string]any{"chains": chains})
}

type graphFactsParams struct {
	*rootParams
	files []string
}

func newGraphFactsCommand(root *rootParams) *cobra.Command {
	p := &graphFactsParams{rootParams: root}
	cmd := &cobra.Command{
		Use:   "facts",
		Short: "The graph facts plan rules get for files: migration rules, contracts, macro constraints, prose policies and their grounding (JSON)",
		RunE:  func(cmd *cobra.Command, _ []string) error { return p.run(cmd.Context(), cmd) },
	}
	cmd.Flags().StringSliceVar(&p.files, "file", nil, "workspace-relative files (repeatable)")
	return cmd
}

func (p *graphFactsParams) run(ctx context.Context, cmd *cobra.Command) error {
	g, err := app.OpenGraph(ctx, p.workspace)
	if err != nil {
		return err
	}
	defer g.Close()
	facts, err := graph.GatherPolicyFacts(ctx, g.Store, p.files)
	if err != nil {
		return err
	}
	return writeJSON(cmd.OutOrStdout(), facts)
}
