package controller

import (
	"fmt"

	"github.com/mcpc/mcpc/internal/requirements"
)

// What initialize_work's requirement fetch (internal/requirements) becomes
// in a work: input.requirements, attachments and the pack's record of what
// was fetched and what was not.

// requirementFactsOf is input.requirements: initialize_work's fetch, or
// the refs the work's pack holds.
func (c *Controller) requirementFactsOf(t *turn) requirements.Facts {
	if t.requirements != nil {
		return t.requirements.Facts
	}
	f := requirements.EmptyFacts()
	if t.work != nil {
		if got := c.viewOf(t.work).pack.Fetched; got != nil {
			f.Fetched = requirements.FetchedRefs{Jira: orEmpty(got.Jira), Swagger: orEmpty(got.Swagger)}
			f.HasSwagger = len(got.Swagger) > 0
		}
	}
	return f
}

// requirementAttachments writes what initialize_work fetched into the
// work's attachments folder and lists it after the other attachments, and
// records in the pack what was fetched and what was not.
func (c *Controller) requirementAttachments(p *packDoc, rf *requirements.Fetch) error {
	if rf == nil || (len(rf.Items) == 0 && len(rf.Facts.Failures) == 0) {
		return nil
	}
	for _, it := range rf.Items {
		a := attachment{ArtifactID: fmt.Sprintf("att-%03d", len(p.Attachments)+1), Type: it.Type,
			Ref: workDir(p.WorkID) + "/attachments/" + it.File, Caption: it.Caption,
			Citation: &citationRef{Source: it.Source, Ref: it.Ref}, Content: it.Content}
		if err := c.writeState(a.Ref, it.Content); err != nil {
			return err
		}
		p.Attachments = append(p.Attachments, a)
	}
	p.Requirements = &requirements.Pack{Fetched: rf.Facts.Fetched, Insufficiencies: rf.Facts.Failures}
	for _, f := range rf.Facts.Failures {
		c.log.Warn().Str("connector", f.Source).Str("ref", f.Ref).Str("code", f.Code).Msg("requirement not fetched: " + f.Message)
	}
	return nil
}

// citationRef is how a plan cites an attachment's requirement.
type citationRef struct {
	Source string `json:"source"`
	Ref    string `json:"ref"`
}
