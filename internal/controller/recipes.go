package controller

import (
	"context"

	"github.com/mcpc/mcpc/internal/lexeme"
	"github.com/mcpc/mcpc/internal/store"
)

// Recipes with an executor (policies/data/recipes.json lists them).
const (
	recipeReplaceLexeme = "replace_lexeme_in_file"
	recipeValidation    = "run_targeted_validation"
)

// recipeFacts is what policy reads of a replace_lexeme_in_file dry run
// (input.recipe): the file it would change and how many whole-lexeme
// occurrences it holds now.
type recipeFacts struct {
	TargetFile  string `json:"targetFile"`
	Occurrences int    `json:"occurrences"`
}

func isLexemeRecipe(t *turn) bool {
	id, _ := t.args["recipeId"].(string)
	return t.req.Verb == "run_automation_recipe" && id == recipeReplaceLexeme
}

// lexemeParams are replace_lexeme_in_file's params; policy checks them.
func lexemeParams(t *turn) (file, lex, replacement string) {
	p, _ := t.args["params"].(map[string]any)
	file, _ = p["targetFile"].(string)
	lex, _ = p["lexeme"].(string)
	replacement, _ = p["replacement"].(string)
	return file, lex, replacement
}

// gatherLexemeRecipe gathers what a write gathers (the target's path facts
// and hash, this work's read of it) for replace_lexeme_in_file, and the dry
// run's occurrences. Without params.targetFile the node's target is meant.
func (c *Controller) gatherLexemeRecipe(ctx context.Context, tx *store.Tx, t *turn) error {
	file, lex, _ := lexemeParams(t)
	if file == "" {
		nodeID, _ := t.args["planNodeId"].(string)
		n, _ := findNode(t.nodes, nodeID)
		file = n.TargetFile
	}
	if file == "" {
		return nil
	}
	pf := pathFacts{Facts: c.paths.Resolve(file)}
	if !pf.Valid || !pf.Regular {
		t.in.Paths["targetFile"] = pf
		return nil
	}
	content, err := c.paths.ReadFile(pf.Canonical, c.cfg.Index.MaxFileBytes*8)
	if err != nil {
		t.in.Paths["targetFile"] = pf
		return nil
	}
	pf.Hash = sha256Hex(content)
	t.in.Paths["targetFile"] = pf
	t.in.Recipe = recipeFacts{TargetFile: pf.Canonical, Occurrences: lexeme.Count(string(content), lex)}
	if t.work != nil {
		reads, err := tx.Reads(ctx, t.work.ID, pf.Canonical)
		if err != nil {
			return err
		}
		t.in.Reads = reads
	}
	c.gatherRecipeContractFacts(ctx, t, pf.Canonical, content)
	return nil
}

// replaceLexeme runs an allowed replace_lexeme_in_file as a patch: the same
// intent, atomic write, artifacts, ledger record, node status and hold.
func (c *Controller) replaceLexeme(ctx context.Context, tx *store.Tx, t *turn) error {
	pf := t.in.Paths["targetFile"]
	nodeID, _ := t.args["planNodeId"].(string)
	_, lex, replacement := lexemeParams(t)
	before, err := c.paths.ReadFile(pf.Canonical, c.cfg.Index.MaxFileBytes*8)
	if err != nil {
		c.log.Warn().Err(err).Str("file", pf.Canonical).Msg("recipe target not readable")
		t.fail("io_error", "args.params.targetFile", "the file could not be read")
		return nil
	}
	if sha256Hex(before) != pf.Hash {
		t.fail("file_changed", "args.params.targetFile", "the file changed between the decision and the write")
		return nil
	}
	after, n := lexeme.Replace(string(before), lex, replacement)
	node, _ := findNode(t.nodes, nodeID)
	in := patchIntent{Token: newID("patch"), WorkID: t.work.ID, NodeID: nodeID, File: pf.Canonical,
		Before: pf.Hash, After: sha256Hex([]byte(after)), Node: sha256Hex(node.Body), AgentID: t.agent.ID, GitRev: t.gitRev,
		Summary:  diffSummary(pf.Canonical, string(before), after, n),
		IntentID: t.intent.ID, MutationClass: "AST_REFACTOR"}
	if err := c.writeIntent(in); err != nil {
		c.log.Warn().Err(err).Msg("recipe intent not written")
		t.fail("io_error", "args.params.targetFile", "the recipe could not be prepared")
		return nil
	}
	if err := c.paths.WriteFileAtomic(pf.Canonical, []byte(after), false); err != nil {
		c.dropIntent(in)
		c.log.Warn().Err(err).Str("file", pf.Canonical).Msg("recipe write failed")
		t.fail("io_error", "args.params.targetFile", "the file could not be written")
		return nil
	}
	t.afterTx = func(context.Context) { c.dropIntent(in) }
	t.intent.MutationClass = in.MutationClass
	if err := c.landPatch(ctx, tx, t, in); err != nil {
		return err
	}
	if err := c.reserve(ctx, tx, t, pf.Canonical, nodeID); err != nil {
		return err
	}
	if err := c.recordRecipe(ctx, tx, t, map[string]any{"targetFile": pf.Canonical, "replaced": n}); err != nil {
		return err
	}
	dir := artifactDir(t.work.ID, nodeID)
	t.result["applied"] = true
	t.result["replaced"] = n
	t.result["targetFile"] = pf.Canonical
	t.result["artifactBundleRef"] = dir
	t.result["diffSummaryRef"] = dir + "/diff.summary.json"
	t.result["contentHash"] = in.After
	return nil
}

// recordRecipe keeps a recipe_usage event: which recipe ran for which node
// with which params, and what it did.
func (c *Controller) recordRecipe(ctx context.Context, tx *store.Tx, t *turn, outcome map[string]any) error {
	recipe, _ := t.args["recipeId"].(string)
	nodeID, _ := t.args["planNodeId"].(string)
	params, _ := t.args["params"].(map[string]any)
	if params == nil {
		params = map[string]any{}
	}
	return tx.AddEvent(ctx, store.Event{WorkID: t.work.ID, Kind: "recipe_usage", AgentID: t.agent.ID, NodeID: nodeID,
		Body: map[string]any{"recipeId": recipe, "planNodeId": nodeID, "params": params, "outcome": outcome,
			"at": c.now().UTC()}})
}
