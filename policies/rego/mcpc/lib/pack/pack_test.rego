package mcpc.lib.pack_test

import data.mcpc.fixtures_test as fixtures
import data.mcpc.lib.pack

_candidate(file) := {"file": file, "score": 1, "lanes": ["lexical"], "parseError": false, "secretFindings": []}

test_success_excludes_secrets_and_state if {
	selection := pack.selection with input as fixtures.with_input({
		"verb": "initialize_work",
		"candidates": [
			_candidate("src/a.ts"),
			_candidate(".git/config"),
			_candidate(".ai/tmp/work/w/context-pack.json"),
			_candidate("config/.env.local"),
			_candidate("certs/server.pem"),
			_candidate("keys/deploy.key"),
			_candidate("home/.ssh/id_rsa"),
			_candidate(".GIT/config"),
			_candidate(".ai/config/repo.json"),
			_candidate(".orchestration/agent_trace.jsonl"),
			_candidate("src/a.ts"),
			_candidate("src/b.ts"),
		],
	})
	selection == {
		"files": ["src/a.ts", "src/b.ts"],
		"excluded": [
			{"file": ".git/config", "reason": "git internals are never part of a context pack"},
			{"file": ".ai/tmp/work/w/context-pack.json", "reason": "mcpc's runtime state (works, scratch folders, locks)"},
			{"file": ".GIT/config", "reason": "git internals are never part of a context pack"},
			{
				"file": ".ai/config/repo.json",
				"reason": "mcpc's configuration (validation commands, budgets): an agent must not change the rules it runs under",
			},
			{"file": ".orchestration/agent_trace.jsonl", "reason": "mcpc's trace ledger"},
		],
	}
}

# secret files, in any case and at any depth, never enter the pack and are not
# named in excluded either
test_success_secrets_are_left_out_silently if {
	secrets := [
		".env", "config/.env.local", ".envrc", "certs/server.PEM", "keys/deploy.key", "home/.ssh/id_rsa",
		"keys/id_dsa", ".npmrc", ".netrc", ".pgpass", ".aws/credentials", "ops/.docker/config.json",
		"infra/terraform.tfstate", "infra/prod.tfvars", "config/secrets.yml", "store.JKS",
		"config/prod.env", ".vault-token", "gcp-orders-service-account.json", "home/.gnupg/secring.gpg",
		"keys/putty.ppk", "ops/.config/gcloud/application_default_credentials.json",
		# connector credentials
		".ai/auth/jira.token", ".AI/Auth/neo4j", "services/api/.ai/auth/jira.token",
		# env-file variants
		".env.production.local", "web/.env-local", "env.local", ".flaskenv", "api/.env_staging",
		# Docker and package-manager auth
		".docker/config.json", ".dockercfg", "web/.npmrc", ".yarnrc", ".yarnrc.yml", ".pypirc", "pip.conf",
		"home/.gem/credentials", ".cargo/credentials", ".cargo/credentials.toml", ".composer/auth.json",
		"auth.json", ".gradle/gradle.properties", "settings-security.xml", ".m2/settings.xml",
		# Terraform
		"infra/prod.auto.tfvars", "infra/prod.tfvars.json", "infra/terraform.tfstate.backup", ".terraformrc",
		"terraform.rc",
		# netrc and friends
		"_netrc", ".my.cnf", "credentials.json", "service-account-orders.json", "deploy/kubeconfig",
		"ci/prod.kubeconfig", "vpn/office.ovpn", "htpasswd", "deploy/secrets.yml", ".s3cfg", ".boto",
		".git-credentials",
		# keystores
		"android/release.jks", "android/release.keystore", "certs/server.p12", "certs/server.pfx", "keys/auth.p8",
		"keys/app.bks", "keys/app.jceks",
	]
	selection := pack.selection with input as fixtures.with_input({
		"verb": "initialize_work",
		"candidates": array.concat([_candidate(file) | some file in secrets], [_candidate("src/a.ts")]),
	})
	selection == {"files": ["src/a.ts"], "excluded": []}
}

test_success_secret_content_is_left_out_silently if {
	selection := pack.selection with input as fixtures.with_input({
		"verb": "escalate",
		"pack": {"ref": "p", "hash": "h", "files": ["src/a.ts"]},
		"candidates": [
			object.union(_candidate("docs/deploy-notes.md"), {"secretFindings": ["private-key"]}),
			object.union(_candidate("src/b.ts"), {"secretFindings": []}),
			object.union(_candidate(".ai/config/creds.json"), {"secretFindings": ["mcpc-aws-secret-access-key"]}),
		],
	})
	selection == {"files": ["src/a.ts", "src/b.ts"], "excluded": []}
}

# a candidate Go did not scan is treated as holding a secret
test_success_unscanned_candidate_is_left_out if {
	selection := pack.selection with input as fixtures.with_input({
		"verb": "initialize_work",
		"candidates": [object.remove(_candidate("src/b.ts"), ["secretFindings"]), _candidate("src/a.ts")],
	})
	selection == {"files": ["src/a.ts"], "excluded": []}
}

# mcpc's own files never enter the pack, whatever their spelling, and an
# older pack that held one loses it on escalate
test_success_own_files_are_left_out if {
	own := [
		".ai/graph/seed/policies/migration_rules.jsonl", ".ai/memory/m.jsonl", ".ai/policies/testing.md",
		".ai/inbox/r.json", ".mcp.json", ".claude/settings.json", ".cursor/mcp.json", ".vscode/mcp.json",
		".AI/Config/repo.json",
	]
	selection := pack.selection with input as fixtures.with_input({
		"verb": "escalate",
		"pack": {"ref": "p", "hash": "h", "files": ["src/a.ts", ".ai/graph/seed/contracts.jsonl"]},
		"candidates": array.concat([_candidate(file) | some file in own], [_candidate("src/b.ts")]),
	})
	selection.files == ["src/a.ts", "src/b.ts"]
	[entry.file | some entry in selection.excluded] == own
}

test_success_escalate_grows_monotonically if {
	files := pack.files with input as fixtures.with_input({
		"verb": "escalate",
		"candidates": [_candidate("src/c.ts"), _candidate("src/a.ts")],
	})
	files == ["src/a.ts", "src/a.html", "src/c.ts"]
}

test_fail_unparsed_template_makes_pack_insufficient if {
	doc := fixtures.with_input({
		"verb": "initialize_work",
		"candidates": [_candidate("src/a.ts"), object.union(_candidate("src/a.html"), {"parseError": true})],
	})
	pack.outcome == "pack_insufficient" with input as doc
	pack.insufficiency == {
		"missingAnchors": [{
			"anchorType": "template",
			"requiredBy": "src/a.html",
			"whyRequired": "src/a.html could not be parsed, so its component usages are unknown",
			"attemptedSources": ["template_ast"],
			"confidence": 0,
		}],
		"escalationPlan": [{
			"action": "escalate",
			"type": "artifact_fetch",
			"target": "src/a.html",
			"detail": "provide a parseable src/a.html or confirm its component usages",
		}],
		"blockedCommands": ["submit_execution_plan"],
	} with input as doc
}

test_success_parsed_pack_is_ok if {
	pack.outcome == "ok" with input as fixtures.with_input({"verb": "initialize_work", "candidates": [_candidate("src/a.html")]})
}

# names close to secret ones that are ordinary code stay in
test_success_ordinary_names_are_kept if {
	ordinary := [
		"src/environments/environment.ts", "src/auth/auth.service.ts", "src/app/keyboard.ts", "infra/main.tf",
		"infra/variables.tf", "package.json", ".eslintrc.json", "settings.gradle", "src/app/token-list.ts",
		"docs/netrc-format.md",
	]
	selection := pack.selection with input as fixtures.with_input({
		"verb": "initialize_work",
		"candidates": [_candidate(file) | some file in ordinary],
	})
	selection == {"files": ordinary, "excluded": []}
}

_sized(file, size) := object.union(_candidate(file), {"size": size})

_limits(max_files, max_bytes, escalate_max_files) := {"config": object.union(fixtures.input_doc.config, {"pack": limits})} if {
	limits := {"maxFiles": max_files, "maxBytes": max_bytes, "escalateMaxFiles": escalate_max_files}
}

test_success_pack_within_file_limit if {
	selection := pack.selection with input as fixtures.with_input(object.union(_limits(2, 1000, 1), {
		"verb": "initialize_work",
		"candidates": [_sized("src/a.ts", 1), _sized(".git/config", 1), _sized("src/b.ts", 1), _sized("src/c.ts", 1)],
	}))
	selection == {
		"files": ["src/a.ts", "src/b.ts"],
		"excluded": [{"file": ".git/config", "reason": "git internals are never part of a context pack"}],
	}
}

test_success_pack_within_byte_budget if {
	selection := pack.selection with input as fixtures.with_input(object.union(_limits(40, 200, 10), {
		"verb": "initialize_work",
		"candidates": [_sized("src/a.ts", 100), _sized("src/b.ts", 50), _sized("src/c.ts", 100), _sized("src/d.ts", 1)],
	}))
	selection == {"files": ["src/a.ts", "src/b.ts"], "excluded": []}
}

test_success_top_candidate_enters_an_empty_pack_whatever_its_size if {
	selection := pack.selection with input as fixtures.with_input(object.union(_limits(40, 200, 10), {
		"verb": "initialize_work",
		"candidates": [_sized("src/big.ts", 500), _sized("src/b.ts", 1)],
	}))
	selection == {"files": ["src/big.ts"], "excluded": []}
}

test_success_escalate_adds_at_most_its_limit if {
	selection := pack.selection with input as fixtures.with_input(object.union(_limits(40, 1000, 1), {
		"verb": "escalate",
		"candidates": [_sized("src/c.ts", 1), _sized("src/d.ts", 1)],
	}))
	selection == {"files": ["src/a.ts", "src/a.html", "src/c.ts"], "excluded": []}
}

test_success_escalate_oversized_top_candidate_does_not_enter_a_pack_with_files if {
	selection := pack.selection with input as fixtures.with_input(object.union(_limits(40, 200, 10), {
		"verb": "escalate",
		"candidates": [_sized("src/big.ts", 500)],
	}))
	selection == {"files": ["src/a.ts", "src/a.html"], "excluded": []}
}

# a template the limits leave out of the pack cannot make the pack insufficient:
# the report would blame a file the pack does not hold
test_success_unparsed_candidate_outside_the_pack_is_ok if {
	doc := fixtures.with_input(object.union(_limits(1, 1000, 10), {
		"verb": "initialize_work",
		"candidates": [_sized("src/a.ts", 1), object.union(_sized("src/a.html", 1), {"parseError": true})],
	}))
	pack.files == ["src/a.ts"] with input as doc
	pack.outcome == "ok" with input as doc
	pack.insufficiency.missingAnchors == [] with input as doc
}
