package eval

// score fills a row's recall figures from the pack in rank order.
func score(res *RowResult, pack []string) {
	res.PackSize = len(pack)
	if len(res.Gold) == 0 {
		return
	}
	gold := map[string]bool{}
	for _, g := range res.Gold {
		gold[g] = true
	}
	recallAt := func(k int) float64 {
		hit := 0
		for i, f := range pack {
			if k > 0 && i >= k {
				break
			}
			if gold[f] {
				hit++
			}
		}
		return float64(hit) / float64(len(gold))
	}
	res.Recall5, res.Recall10, res.Recall20 = recallAt(5), recallAt(10), recallAt(20)
	res.RecallAll = recallAt(0)
	inPack := map[string]bool{}
	for _, f := range pack {
		inPack[f] = true
	}
	for _, g := range res.Gold {
		if !inPack[g] {
			res.Missed = append(res.Missed, g)
		}
	}
}

// summarise averages the scored rows (rows with a gold set).
func summarise(rep *Report) {
	rep.Rows = len(rep.Results)
	var packs, secs float64
	for _, r := range rep.Results {
		packs += float64(r.PackSize)
		secs += r.Seconds
		if len(r.Gold) == 0 {
			continue
		}
		rep.Scored++
		rep.Recall5 += r.Recall5
		rep.Recall10 += r.Recall10
		rep.Recall20 += r.Recall20
		rep.RecallAll += r.RecallAll
	}
	if rep.Scored > 0 {
		n := float64(rep.Scored)
		rep.Recall5 /= n
		rep.Recall10 /= n
		rep.Recall20 /= n
		rep.RecallAll /= n
	}
	if rep.Rows > 0 {
		rep.MeanPackSize = packs / float64(rep.Rows)
		rep.MeanSeconds = secs / float64(rep.Rows)
	}
}
