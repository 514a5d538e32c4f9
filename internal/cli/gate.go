package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/exactjson"
	"github.com/mcpc/mcpc/internal/observe"
	"github.com/mcpc/mcpc/internal/store"
)

type gateParams struct {
	*rootParams
	work, gate, by, note string
}

func newGateCommand(root *rootParams) *cobra.Command {
	p := &gateParams{rootParams: root}
	cmd := &cobra.Command{Use: "gate", Short: "Human approval of commit gates"}
	approve := &cobra.Command{
		Use:   "approve GATE --work ID",
		Short: "Approve a commit gate of a work's accepted plan, so its side_effect node may run",
		Long: `A side_effect node names a commitGateId; execute_gated_side_effect is denied
(EXEC_UNGATED_SIDE_EFFECT) until a person approves that gate here. The gate must
belong to a side_effect node of the work's accepted plan. The gate is given as
the argument or with --gate (not both). Prints the approval as JSON.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 1 && p.gate != "" && p.gate != args[0]:
				return fmt.Errorf("the gate is given twice (%s and --gate %s)", args[0], p.gate)
			case len(args) == 1:
				p.gate = args[0]
			case p.gate == "":
				return errors.New("name the gate: mcpc gate approve GATE --work ID")
			}
			return p.approve(cmd)
		},
	}
	approve.Flags().StringVar(&p.work, "work", "", "work id (required)")
	approve.Flags().StringVar(&p.gate, "gate", "", "commitGateId to approve (the flag form of the GATE argument)")
	approve.Flags().StringVar(&p.by, "by", "", "who approves; default the current user")
	approve.Flags().StringVar(&p.note, "note", "", "why, for the record")
	_ = approve.MarkFlagRequired("work")
	cmd.AddCommand(approve)
	return cmd
}

func (p *gateParams) approve(cmd *cobra.Command) error {
	if p.by == "" {
		if u, err := user.Current(); err == nil {
			p.by = u.Username
		}
	}
	st, err := store.Open(filepath.Join(p.workspace, app.StorePath))
	if err != nil {
		return err
	}
	defer st.Close()
	ctx := context.Background()
	err = st.Update(ctx, func(tx *store.Tx) error {
		if _, err := tx.Work(ctx, p.work); errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("work %s does not exist in %s", p.work, p.workspace)
		} else if err != nil {
			return err
		}
		nodes, err := tx.Nodes(ctx, p.work, true)
		if err != nil {
			return err
		}
		for _, n := range nodes {
			// The node policy judged, read with exact keys: a
			// "commitgateid" twin is not the gate a person approves.
			body, _, _ := exactjson.Decode(n.Body)
			fields, _ := body.(map[string]any)
			if gate, _ := fields["commitGateId"].(string); n.Kind == "side_effect" && gate == p.gate {
				return tx.ApproveGate(ctx, p.work, p.gate, p.by, p.note)
			}
		}
		return fmt.Errorf("gate %s is not the commitGateId of a side_effect node in work %s's accepted plan", p.gate, p.work)
	})
	if err != nil {
		return err
	}
	if err := observe.RecordGateApproval(ctx, st, p.work, p.gate, p.by); err != nil {
		fmt.Fprintf(os.Stderr, "mcpc: the gate_approval event was not recorded: %v\n", err)
	}
	fmt.Fprintf(os.Stderr, "approved gate %s of work %s\n", p.gate, p.work)
	return writeJSON(cmd.OutOrStdout(), map[string]string{"work": p.work, "gate": p.gate, "approvedBy": p.by, "note": p.note})
}
