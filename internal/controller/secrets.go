package controller

import "regexp"

// keyMaterial finds private keys and cloud secret keys in a file's content.
// A secret's name does not always give it away (a key pasted into notes, a
// service-account file named after its project), and the pack policy's
// name rules cannot know every name.
var keyMaterial = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?i:aws_secret_access_key)\s*[=:]`)

// keyScanBytes bounds the files scanned; larger ones are left to the name
// rules.
const keyScanBytes = 1 << 20

// markKeyMaterial tells the pack policy which candidates hold key material.
func (c *Controller) markKeyMaterial(cands []Candidate) {
	for i := range cands {
		data, err := c.paths.ReadFile(cands[i].File, keyScanBytes)
		cands[i].KeyMaterial = err == nil && keyMaterial.Match(data)
	}
}
