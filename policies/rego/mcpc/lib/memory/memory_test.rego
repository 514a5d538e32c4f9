package mcpc.lib.memory_test

import data.mcpc.lib.memory

# the memory lane counts exactly the active records, on the same clock
test_success_lane_counts_the_active_records if {
	records := [
		{"id": "m1", "state": "approved", "domainAnchorIds": ["anchor:src/app/dashboard"]},
		{"id": "m2", "state": "pending", "createdAt": "2026-11-24T00:00:00Z", "domainAnchorIds": ["src/secret"]},
		{"id": "m3", "state": "provisional", "domainAnchorIds": ["/src/app/orders", 7]},
		{"id": "m4", "state": "retired", "domainAnchorIds": ["src/old"]},
		{"id": "m5", "state": "Approved", "domainAnchorIds": ["src/cased"]},
		{"id": "m6", "state": "approved", "expiresAt": "2026-11-01T00:00:00Z", "domainAnchorIds": ["src/gone"]},
		{"id": "m7", "state": "pending", "createdAt": "2026-11-22T00:00:00Z", "enforcementType": "few_shot", "domainAnchorIds": ["src/learned"]},
		{"id": "m8", "state": "approved", "domainAnchorIds": ["anchor:"]},
	]
	doc := {"enforcement": {"now": "2026-11-25T00:00:00Z", "memories": records}}
	counted := ["m1", "m3", "m7", "m8"]
	memory.summary == {"counted": counted, "anchors": ["src/app/dashboard", "src/app/orders", "src/learned"]} with input as doc
}

test_success_no_records if {
	memory.summary == {"counted": [], "anchors": []} with input as {"enforcement": {"now": "2026-11-25T00:00:00Z", "memories": []}}
}
