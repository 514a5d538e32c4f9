package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/mcpc/mcpc/internal/pathscope"
)

// openStates are the states of a candidate still being decided on or in
// force: a signature with one of these gets no second candidate.
var openStates = map[string]bool{"pending": true, "provisional": true, "approved": true}

// maxPendingFromFriction bounds the pending candidates friction opens: an
// agent denied in ever new folders would otherwise grow records.json
// without end (and push people's records past MaxRecords). Past it the
// ledger still records every denial; candidates wait for review.
const maxPendingFromFriction = 200

// SignatureID is the stable id of a signature's candidates.
func SignatureID(sig Signature) string {
	sum := sha256.Sum256([]byte(sig.Key()))
	return "friction-" + hex.EncodeToString(sum[:6])
}

// OpenCandidates creates a pending candidate for each signature that has
// none open, under the records lock. A signature a person rejected stays
// rejected: it gets no new candidate. One that expired may be learned
// again (a new id with a generation suffix).
func OpenCandidates(res *pathscope.Resolver, sigs []Signature, d Denial, counts map[string]int, sc Scaffolder, now time.Time) error {
	_, err := openCandidates(res, sigs, d, counts, sc, now)
	return err
}

// openCandidates is OpenCandidates returning the stamp of the records it
// leaves: each of sigs has a candidate open or rejected in that version
// (or waits for the pending bound).
func openCandidates(res *pathscope.Resolver, sigs []Signature, d Denial, counts map[string]int, sc Scaffolder, now time.Time) (recordsStamp, error) {
	return updateStamped(res, func(records []Record) ([]Record, bool, error) {
		changed := false
		pending := 0
		for _, r := range records {
			if str(r, "trigger") == "rejection_pattern" && str(r, "state") == "pending" {
				pending++
			}
		}
		for _, sig := range sigs {
			if pending >= maxPendingFromFriction {
				break
			}
			base := SignatureID(sig)
			gen, open := 0, false
			for _, r := range records {
				id := str(r, "id")
				if id != base && !strings.HasPrefix(id, base+"-") {
					continue
				}
				gen++
				if openStates[str(r, "state")] || str(r, "state") == "rejected" {
					open = true
				}
			}
			if open {
				continue
			}
			id := base
			if gen > 0 {
				id = fmt.Sprintf("%s-%d", base, gen+1)
			}
			records = append(records, sc.candidate(id, sig, d, counts[sig.Key()], now))
			changed = true
			pending++
		}
		return records, changed, nil
	})
}
