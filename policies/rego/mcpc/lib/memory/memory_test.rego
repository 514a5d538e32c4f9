package mcpc.lib.memory_test

import data.mcpc.lib.memory

test_success_enforced_records_count if {
	records := [
		{"id": "m1", "state": "approved", "domainAnchorIds": ["anchor:src/app/dashboard"]},
		{"id": "m2", "state": "pending", "domainAnchorIds": ["src/secret"]},
		{"id": "m3", "state": "provisional", "domainAnchorIds": ["/src/app/orders", 7]},
		{"id": "m4", "state": "retired", "domainAnchorIds": ["src/old"]},
		{"id": "m5", "state": "Approved", "domainAnchorIds": ["src/cased"]},
	]
	memory.summary == {"counted": ["m1", "m3"], "anchors": ["src/app/dashboard", "src/app/orders"]} with input as {"memoryRecords": records}
}

test_success_no_records if {
	memory.summary == {"counted": [], "anchors": []} with input as {"memoryRecords": []}
}
