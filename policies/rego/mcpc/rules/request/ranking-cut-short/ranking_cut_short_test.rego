package mcpc.rules.request["ranking-cut-short_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.request["ranking-cut-short"] as rule

test_fail_cut_short_reported if {
	r := rule.report with input as fixtures.with_input({
		"verb": "initialize_work",
		"pack": {"ref": "", "hash": "", "files": [], "rankingCutShort": {"limitMs": 2000, "ranked": 40, "unscanned": 12}},
	})
	r == {{
		"code": "PACK_INSUFFICIENT",
		"rule": "mcpc.rules.request[\"ranking-cut-short\"]",
		"message": "ranking ran past its 2000 ms deadline: 40 candidates ranked, 12 left out unscanned",
		"path": "pack.rankingCutShort",
		"remediation": concat("", [
			"The pack may lack files it would otherwise hold: escalate with the files, symbols or ",
			"lexemes you miss, or ask a person to raise store.lockTimeoutMs on a loaded machine.",
		]),
		"severity": "warning",
	}}
}

test_success_ranking_in_time if {
	count(rule.report) == 0 with input as fixtures.with_input({"verb": "initialize_work"})
}

test_success_other_verbs_not_judged if {
	count(rule.report) == 0 with input as fixtures.with_input({
		"verb": "read_file_lines",
		"pack": {"ref": "", "hash": "", "files": [], "rankingCutShort": {"limitMs": 2000, "ranked": 40, "unscanned": 12}},
	})
}
