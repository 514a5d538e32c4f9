package controller

// writeScratch writes a note under the work's scratch folder only.
func (c *Controller) writeScratch(t *turn) error {
	pf := t.in.Paths["relativePath"]
	content, _ := t.args["content"].(string)
	if err := t.scratch.WriteFileAtomic(pf.Canonical, []byte(content), true); err != nil {
		c.log.Warn().Err(err).Msg("scratch write failed")
		t.fail("io_error", "args.relativePath", "the scratch file could not be written")
		return nil
	}
	t.result["written"] = workDir(t.work.ID) + "/scratch/" + pf.Canonical
	t.result["bytes"] = len(content)
	return nil
}
