#!/usr/bin/env node
// Drives a real mcpc server through a whole work with the official TypeScript
// MCP SDK client (@modelcontextprotocol/sdk), over stdio or streamable HTTP.
// It is the same lifecycle internal/demo plays with mcpc's own Go client, so a
// pass here means mcpc's schema, result shape and protocol negotiation hold
// up under a client mcpc did not write.
//
//   node ts-client.mjs --binary /tmp/mcpc --workspace DIR [--transport stdio|http]
//
// DIR must be a fresh copy of examples/angular-shop (the run patches it).
// MCPC_BIN and MCPC_WORKSPACE stand in for the flags. One line per turn on
// stdout; exit 1 on the first mismatch, with the server's stderr.

import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { isDeepStrictEqual, parseArgs } from "node:util";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";

const PROMPT = "Migrate the dashboard stock warning from adp-alert to sdf-alert";
const TARGET = "src/app/dashboard/dashboard.component.html";
const TOOL = "controller_turn";
// COLD_FILES is how many files the stdio run adds to the workspace.
const COLD_FILES = 300;

const { values: opts } = parseArgs({
  options: {
    binary: { type: "string", default: process.env.MCPC_BIN },
    workspace: { type: "string", default: process.env.MCPC_WORKSPACE },
    transport: { type: "string", default: "stdio" },
    "timeout-ms": { type: "string", default: "20000" },
  },
});
if (!opts.binary || !opts.workspace || !["stdio", "http"].includes(opts.transport)) {
  console.error("usage: node ts-client.mjs --binary PATH --workspace DIR [--transport stdio|http]");
  process.exit(2);
}
const timeout = Number(opts["timeout-ms"]);

class Mismatch extends Error {}
function check(cond, msg) {
  if (!cond) throw new Mismatch(msg);
}

let serverStderr = "";

// tap records every message the server sends, so the negotiated protocol
// version and any JSON-RPC error are visible whatever the transport.
const received = [];
function tap(transport) {
  let handler;
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () => handler,
    set: (fn) => {
      handler = fn && ((msg, extra) => {
        received.push(msg);
        return fn(msg, extra);
      });
    },
  });
  return transport;
}

// startHTTP runs `mcpc serve --http 127.0.0.1:0` (the kernel picks a free
// loopback port) and reads the address the server announces on stderr.
function startHTTP() {
  const child = spawn(opts.binary, ["serve", "--workspace", opts.workspace, "--http", "127.0.0.1:0"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Mismatch("no 'serving MCP at http://…/mcp' line on stderr within 15s")), 15000);
    child.stderr.on("data", (b) => {
      serverStderr += b;
      const m = serverStderr.match(/serving MCP at (http:\/\/\S+\/mcp)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Mismatch(`server exited with ${code} before serving`));
    });
  });
  return { child, url };
}

async function connect() {
  const client = new Client({ name: "mcpc-ts-client-test", version: "1.0.0" });
  if (opts.transport === "stdio") {
    // A cold workspace: no start-up refresh (--no-warm), and more files
    // than one index batch (256), so initialize_work builds the index and
    // reports each batch as progress.
    const gen = join(opts.workspace, "src", "generated");
    mkdirSync(gen, { recursive: true });
    for (let i = 0; i < COLD_FILES; i++) writeFileSync(join(gen, `gen${i}.ts`), `export const gen${i} = ${i};\n`);
    const transport = new StdioClientTransport({
      command: opts.binary,
      args: ["serve", "--workspace", opts.workspace, "--no-warm"],
      stderr: "pipe",
    });
    transport.stderr.on("data", (b) => (serverStderr += b));
    await client.connect(tap(transport), { timeout });
    return { client, close: () => client.close() };
  }
  const { child, url } = startHTTP();
  const addr = await url;
  check(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/.test(addr), `server announced ${addr}, want a 127.0.0.1 loopback address`);
  const transport = new StreamableHTTPClientTransport(new URL(addr));
  await client.connect(tap(transport), { timeout });
  console.log(`    streamable HTTP at ${addr}, session ${transport.sessionId ?? "(none)"}`);
  return {
    client,
    close: async () => {
      try {
        await transport.terminateSession();
      } catch {
        // a server without session termination answers 405; not our concern here
      }
      await client.close();
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r() : child.on("exit", r)));
    },
  };
}

let n = 0;
let work = "";
let agent = "";
// progress[label] lists the notifications/progress a turn received (the SDK
// sends a progressToken in _meta when onprogress is given); logs the
// notifications/message the server sent once the level was set.
const progress = {};
const logs = [];

// turn calls controller_turn and checks what every result must satisfy: a
// normal tool result (isError false even on a denial), one text content whose
// JSON equals structuredContent, schemaVersion 2.0.0.
async function turn(client, label, req) {
  n++;
  const full = work ? { workId: work, agentId: agent, ...req } : req;
  const seen = (progress[label] = []);
  const res = await client.callTool({ name: TOOL, arguments: full }, undefined, { timeout, onprogress: (p) => seen.push(p) });
  check(res.isError !== true, `turn ${n} (${label}): isError is ${res.isError}; denials must be normal results`);
  check(Array.isArray(res.content) && res.content.length === 1 && res.content[0].type === "text",
    `turn ${n} (${label}): want exactly one text content, got ${JSON.stringify(res.content)?.slice(0, 300)}`);
  let parsed;
  try {
    parsed = JSON.parse(res.content[0].text);
  } catch (e) {
    throw new Mismatch(`turn ${n} (${label}): text content is not JSON: ${e.message}`);
  }
  const sc = res.structuredContent;
  check(sc && typeof sc === "object", `turn ${n} (${label}): no structuredContent`);
  check(isDeepStrictEqual(parsed, sc), `turn ${n} (${label}): structuredContent differs from the JSON text content`);
  for (const k of ["runSessionId", "state", "capabilities", "verbDescriptions", "denyReasons", "denials", "budgetStatus", "progress", "schemaVersion"]) {
    check(k in sc, `turn ${n} (${label}): TurnResponse lacks ${k}`);
  }
  check(sc.schemaVersion === "2.0.0", `turn ${n} (${label}): schemaVersion ${sc.schemaVersion}`);
  const denied = (sc.denials ?? []).length > 0;
  const p = sc.progress ?? {};
  console.log(`${String(n).padStart(2)}. ${label.padEnd(34)} ${req.verb.padEnd(22)} -> ${String(sc.state).padEnd(13)} ${denied ? "DENIED " : "allowed"}  progress ${p.completedNodes}/${p.totalNodes}`);
  for (const r of sc.denyReasons ?? []) console.log(`      ${r}`);
  return sc;
}

async function allowed(client, label, req) {
  const sc = await turn(client, label, req);
  check((sc.denials ?? []).length === 0, `turn ${n} (${label}) was denied: ${(sc.denyReasons ?? []).join("; ")}`);
  check(!(sc.result && "error" in sc.result), `turn ${n} (${label}) failed: ${JSON.stringify(sc.result?.error)}`);
  return sc;
}

async function denied(client, label, req, code) {
  const sc = await turn(client, label, req);
  check((sc.denials ?? []).length > 0, `turn ${n} (${label}) was allowed; it must be denied`);
  check(sc.denials[0].code === code, `turn ${n} (${label}): want ${code}, got ${sc.denyReasons?.[0]}`);
  check(String(sc.denyReasons?.[0]).startsWith(`${code}: `), `turn ${n} (${label}): denyReasons[0] does not read "${code}: …"`);
  check(sc.suggestedAction !== undefined, `turn ${n} (${label}): a denial carries no suggestedAction`);
  return sc;
}

// plan builds the migration's PlanGraph on the envelope initialize_work
// returned, as internal/demo.Plan does with evidence.
function plan(envelope) {
  const hooks = [{ recipeId: "run_targeted_validation", params: { commandId: "no-adp-alert" } }];
  return {
    ...envelope,
    knowledgeStrategyReasons: [{ reason: "adp-alert usage found in the dashboard template", evidenceRefs: [TARGET] }],
    evidencePolicy: { minRequirementSources: 1, minCodeEvidenceSources: 1, minDistinctSources: 2 },
    planFingerprint: "ts-client-adp-alert-1",
    sourceTraceRefs: [],
    nodes: [
      {
        nodeId: "change-alert", kind: "change", dependsOn: [],
        atomicityBoundary: "file", expectedFailureSignatures: ["unbalanced sdf-alert"],
        correctionCandidateOnFail: "revert the template to adp-alert",
        operation: "modify", targetFile: TARGET, targetSymbols: ["adp-alert"],
        whyThisFile: "it is the only template that renders adp-alert on the dashboard",
        editIntent: "replace <adp-alert type> with <sdf-alert severity>",
        verificationHooks: hooks,
        citations: [{ source: "prompt", ref: "originalPrompt", quote: PROMPT }],
        codeEvidence: [{ file: TARGET, startLine: 3, endLine: 3, symbol: "adp-alert" }],
      },
      {
        nodeId: "validate-alert", kind: "validate", dependsOn: ["change-alert"],
        atomicityBoundary: "file", expectedFailureSignatures: ["adp-alert is still used"],
        correctionCandidateOnFail: "patch the remaining adp-alert",
        verificationHooks: hooks,
        mapsToNodeIds: ["change-alert"],
        successCriteria: "no <adp-alert> remains under src/",
      },
    ],
  };
}

// outsidePack is a real source file of the workspace the pack does not list,
// so PACK_SCOPE_VIOLATION is proven on an existing file, not only on "../".
function outsidePack(files) {
  const all = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir)) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else all.push(relative(opts.workspace, p).split(sep).join("/"));
    }
  };
  walk(join(opts.workspace, "src"));
  return all.sort().find((f) => !files.includes(f));
}

async function lifecycle(client) {
  // tools/list: the TS client rejects the whole list when a property schema is
  // the boolean true, so getting here at all proves the schema is acceptable.
  const { tools } = await client.listTools(undefined, { timeout });
  check(tools.length === 1 && tools[0].name === TOOL, `tools/list: want exactly [${TOOL}], got ${JSON.stringify(tools.map((t) => t.name))}`);
  const schema = tools[0].inputSchema;
  check(schema.type === "object" && schema.required?.includes("verb"), `tools/list: inputSchema must be an object requiring verb: ${JSON.stringify(schema)}`);
  for (const [k, v] of Object.entries(schema.properties ?? {})) {
    check(v !== null && typeof v === "object", `tools/list: property ${k} has a non-object schema ${JSON.stringify(v)}`);
  }
  console.log(` 0. tools/list                         ${TOOL} (${Object.keys(schema.properties ?? {}).length} properties)`);

  // 1. Nothing but initialize_work before a work exists.
  const pre = await denied(client, "read before initialize_work", { verb: "read_file_lines", args: { targetFile: TARGET } }, "VERB_NOT_AVAILABLE");
  check(pre.state === "UNINITIALIZED", `turn ${n}: state ${pre.state}, want UNINITIALIZED`);
  check(isDeepStrictEqual(pre.capabilities, ["initialize_work"]), `turn ${n}: capabilities ${JSON.stringify(pre.capabilities)}, want [initialize_work]`);

  // 2. Start the work.
  let init = await allowed(client, "start the work", {
    verb: "initialize_work", originalPrompt: PROMPT,
    args: { lexemes: ["adp-alert", "sdf-alert", "dashboard", "stock warning"] },
  });
  check(init.state === "PLANNING", `turn ${n}: state ${init.state}, want PLANNING`);
  check(init.originalPrompt === PROMPT, `turn ${n}: originalPrompt not echoed`);
  check(init.workId && init.agentId, `turn ${n}: no workId/agentId`);
  work = init.workId;
  agent = init.agentId;
  let files = init.contextPack?.files;
  check(Array.isArray(files) && files.every((f) => typeof f === "string"), `turn ${n}: contextPack.files is not a list of paths`);
  console.log(`      pack: ${files.length} files, hash ${init.contextPack.hash}`);
  if (!files.includes(TARGET)) {
    init = await allowed(client, "escalate for the dashboard template", {
      verb: "escalate", args: { need: "the dashboard component template that renders adp-alert" },
    });
    files = init.contextPack.files;
    check(files.includes(TARGET), `turn ${n}: escalate did not bring ${TARGET} into the pack`);
  }
  const envelope = init.planGraphSchema?.envelope;
  check(envelope && typeof envelope === "object" && envelope.workId === work, `turn ${n}: planGraphSchema.envelope missing or for another work`);

  // 3. Reads are pack-scoped.
  const read = await allowed(client, "read the template", { verb: "read_file_lines", args: { targetFile: TARGET } });
  check(read.result?.targetFile === TARGET && read.result?.totalLines > 0 && String(read.result?.content).includes("adp-alert"),
    `turn ${n}: unexpected read result ${JSON.stringify(read.result)?.slice(0, 300)}`);
  await denied(client, "read a traversal path", { verb: "read_file_lines", args: { targetFile: "../../etc/passwd" } }, "PACK_SCOPE_VIOLATION");
  const other = outsidePack(files);
  if (other) {
    await denied(client, "read a real file outside the pack", { verb: "read_file_lines", args: { targetFile: other } }, "PACK_SCOPE_VIOLATION");
  }

  // 4. Plan.
  const accepted = await allowed(client, "submit the plan", { verb: "submit_execution_plan", args: { planGraph: plan(envelope) } });
  check(accepted.state === "PLAN_ACCEPTED", `turn ${n}: state ${accepted.state}, want PLAN_ACCEPTED`);
  check(accepted.progress.totalNodes === 2 && accepted.progress.completedNodes === 0, `turn ${n}: progress ${JSON.stringify(accepted.progress)}`);
  await denied(client, "complete with nodes remaining", { verb: "signal_task_complete" }, "WORK_INCOMPLETE");

  // 5. Execute: patch, then validate.
  const patch = await allowed(client, "patch the template", {
    verb: "apply_code_patch",
    args: {
      planNodeId: "change-alert", targetFile: TARGET,
      edits: [
        { op: "codemod", codemod: "rewrite_template_tag", params: { from: "adp-alert", to: "sdf-alert" } },
        { op: "replace_text", find: 'type="warning"', replace: 'severity="warning"' },
      ],
    },
  });
  check(patch.result?.artifactBundleRef && patch.result?.diffSummaryRef, `turn ${n}: patch result lacks artifactBundleRef/diffSummaryRef: ${JSON.stringify(patch.result)?.slice(0, 300)}`);
  const onDisk = readFileSync(join(opts.workspace, TARGET), "utf8");
  check(onDisk.includes("<sdf-alert") && !onDisk.includes("<adp-alert"), `after turn ${n}: ${TARGET} was not migrated on disk:\n${onDisk}`);
  const val = await allowed(client, "run the validation", {
    verb: "run_automation_recipe",
    args: {
      recipeId: "run_targeted_validation", planNodeId: "validate-alert",
      params: { commandId: "no-adp-alert" },
      artifactBundleRef: patch.result.artifactBundleRef, diffSummaryRef: patch.result.diffSummaryRef,
    },
  });
  check(val.result?.status === "passed", `turn ${n}: validation ${val.result?.status}: ${val.result?.output}`);
  check(val.progress.completedNodes === 2 && val.progress.remainingNodes === 0, `turn ${n}: progress ${JSON.stringify(val.progress)}`);

  // 6. Complete.
  const done = await allowed(client, "complete the work", { verb: "signal_task_complete", args: { summary: "adp-alert migrated" } });
  check(done.state === "COMPLETED", `turn ${n}: state ${done.state}, want COMPLETED`);

  // 7. A protocol fault is a JSON-RPC error, not a tool result.
  let fault;
  try {
    await client.callTool({ name: "no_such_tool", arguments: {} }, undefined, { timeout });
  } catch (e) {
    fault = e;
  }
  check(fault && typeof fault.code === "number", "calling an unknown tool returned a tool result; a protocol fault must be a JSON-RPC error");
  console.log(`    unknown tool -> JSON-RPC error ${fault.code} (protocol fault, as the contract says)`);
}

const t0 = Date.now();
let conn;
try {
  conn = await connect();
  const sv = conn.client.getServerVersion();
  const initResp = received.find((m) => m.result?.protocolVersion);
  const negotiated = initResp?.result?.protocolVersion;
  check(sv?.name === "mcpc", `serverInfo.name ${sv?.name}, want mcpc`);
  check(SUPPORTED_PROTOCOL_VERSIONS.includes(negotiated), `negotiated protocol ${negotiated}, not one the TS SDK supports`);
  console.log(`ts-sdk client over ${opts.transport}: server ${sv.name} ${sv.version}, protocol ${negotiated}`);
  conn.client.setNotificationHandler(LoggingMessageNotificationSchema, (m) => logs.push(m.params));
  await conn.client.setLoggingLevel("info");
  await lifecycle(conn.client);
  // Progress: initialize_work reports its steps, the validation its run,
  // each sequence strictly increasing and never past its total. The SDK
  // hands notifications to onprogress a microtask late and forgets the
  // token when the answer is read, so one that arrives in the same read as
  // the answer (the server's closing "done") may be dropped: the checks
  // count on the ones sent while the turn works.
  for (const [label, least] of [["start the work", 2], ["run the validation", 1]]) {
    const seen = progress[label] ?? [];
    check(seen.length >= least, `${label}: ${seen.length} progress notifications, want at least ${least}`);
    for (let i = 1; i < seen.length; i++) {
      check(seen[i].progress > seen[i - 1].progress, `${label}: progress does not increase: ${JSON.stringify(seen)}`);
    }
    check(seen.every((p) => p.total === undefined || p.progress <= p.total), `${label}: progress past its total: ${JSON.stringify(seen)}`);
    console.log(`    ${label}: ${seen.length} progress notifications (${seen.map((p) => p.message).join(" / ")})`);
  }
  if (opts.transport === "stdio") {
    // The cold index build reports its batches: at least two "indexed d of
    // n files", d growing, n the whole workspace.
    const batches = (progress["start the work"] ?? []).map((p) => /^indexed (\d+) of (\d+) files$/.exec(p.message ?? "")).filter(Boolean);
    check(batches.length >= 2, `start the work: ${batches.length} index batch notifications on a cold workspace, want at least 2: ${JSON.stringify(progress["start the work"])}`);
    check(batches.every((m, i) => Number(m[2]) > COLD_FILES && (i === 0 || Number(m[1]) > Number(batches[i - 1][1]))),
      `start the work: index batches ${JSON.stringify(batches.map((m) => m[0]))}`);
  }
  check(logs.length >= n - 1 && logs.every((l) => l.logger === "mcpc" && typeof l.data?.verb === "string"),
    `want a log message per turn after logging/setLevel, got ${logs.length} for ${n} turns: ${JSON.stringify(logs.slice(0, 2))}`);
  console.log(`    ${logs.length} log messages (notifications/message) for ${n} turns`);
  const rpcErrors = received.filter((m) => m.error && m.id !== undefined);
  check(rpcErrors.length === 1, `want exactly one JSON-RPC error (the unknown tool), got: ${JSON.stringify(rpcErrors)}`);
  await conn.close();
  conn = undefined;
  console.log(`OK: work ${work} COMPLETED in ${n} turns over ${opts.transport} (${Date.now() - t0} ms, server stderr ${serverStderr.length} bytes)`);
} catch (e) {
  console.log(`FAIL (${opts.transport}): ${e instanceof Mismatch ? e.message : e.stack ?? e}`);
  if (serverStderr) console.log(`--- server stderr ---\n${serverStderr}`);
  try {
    await conn?.close();
  } catch {
    // already failing
  }
  process.exit(1);
}
