package controller

import (
	"errors"
	"io/fs"
	"slices"

	"github.com/gobwas/glob"
	"go.yaml.in/yaml/v3"

	"github.com/mcpc/mcpc/internal/ledger"
	"github.com/mcpc/mcpc/internal/patch"
)

// activeIntentsFile is seed 004's intent sidecar. When it exists, writes
// are scoped to its active intents' owned_scope globs.
const activeIntentsFile = ".orchestration/active_intents.yaml"

// intentsFacts is what policy reads of the intent sidecar (input.intents).
type intentsFacts struct {
	// Present: the sidecar exists, so every write needs an active intent
	// whose owned_scope holds its file.
	Present bool `json:"present"`
	// Error says why a present sidecar could not be read (policy fails
	// closed on it).
	Error  string           `json:"error"`
	Active []intentDeclared `json:"active"`
	// Target is the canonical file the turn writes ("" for other turns).
	Target string `json:"target"`
}

// intentDeclared is one active intent as declared in the sidecar.
type intentDeclared struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Status     string   `json:"status"`
	OwnedScope []string `json:"ownedScope"`
}

// intentFacts is the intent a write is made under, for the ledger.
type intentFacts struct {
	ID            string
	MutationClass string
}

// closedIntentStatuses are statuses under which an intent owns nothing.
var closedIntentStatuses = []string{"COMPLETED", "DONE", "CLOSED", "ABANDONED", "CANCELLED", "LOCKED", "ARCHIVED"}

// readIntents reads the sidecar. A missing file is no intents; anything
// else that goes wrong is reported as a fact, never silently allowed.
func (c *Controller) readIntents() intentsFacts {
	f := intentsFacts{Active: []intentDeclared{}}
	raw, err := c.paths.ReadFile(activeIntentsFile, 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return f
	}
	f.Present = true
	if err != nil {
		f.Error = err.Error()
		return f
	}
	var doc struct {
		ActiveIntents []struct {
			ID         string   `yaml:"id"`
			Name       string   `yaml:"name"`
			Status     string   `yaml:"status"`
			OwnedScope []string `yaml:"owned_scope"`
		} `yaml:"active_intents"`
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		f.Error = "active_intents.yaml is not valid: " + err.Error()
		return f
	}
	for _, in := range doc.ActiveIntents {
		if in.ID == "" || slices.Contains(closedIntentStatuses, in.Status) {
			continue
		}
		f.Active = append(f.Active, intentDeclared{ID: in.ID, Name: in.Name, Status: in.Status, OwnedScope: orEmpty(in.OwnedScope)})
	}
	return f
}

// intentFor names the first active intent whose owned_scope holds file,
// for the ledger. Policy has already refused a write no intent owns; the
// globs match as Rego's glob.match with "/" delimiters does.
func intentFor(f intentsFacts, file string) string {
	for _, in := range f.Active {
		for _, pattern := range in.OwnedScope {
			if g, err := glob.Compile(pattern, '/'); err == nil && g.Match(file) {
				return in.ID
			}
		}
	}
	return ""
}

// mutationClass is seed 004's class of a write: a patch made only of
// codemods is an AST refactor; any text replacement changes what the code
// says (intent evolution).
func mutationClass(edits []patch.Edit) string {
	if len(edits) == 0 {
		return ledger.Unknown
	}
	for _, e := range edits {
		if e.Op != "codemod" {
			return ledger.IntentEvolution
		}
	}
	return ledger.ASTRefactor
}
