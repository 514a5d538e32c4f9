#!/usr/bin/env node
// Runs the MCP Inspector CLI (@modelcontextprotocol/inspector, headless
// `--cli` mode, from this folder's node_modules: no network download) against
// mcpc and checks its JSON output: tools/list (also under --strict, the
// inspector's tool-schema portability check), tools/call of controller_turn
// before and after initialize_work, a second server process joining the work
// by workId, protocol era auto (the 2026-07-28 probe), and tools/list +
// tools/call over streamable HTTP.
//
//   node inspector-cli.mjs --binary /tmp/mcpc --workspace DIR
//
// DIR must be a copy of examples/angular-shop. MCPC_BIN and MCPC_WORKSPACE
// stand in for the flags. One line per check; exit 1 on the first mismatch.

import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual, parseArgs } from "node:util";

const PROMPT = "Migrate the dashboard stock warning from adp-alert to sdf-alert";
const TARGET = "src/app/dashboard/dashboard.component.html";
const TOOL = "controller_turn";
const here = dirname(fileURLToPath(import.meta.url));
const INSPECTOR = join(here, "node_modules", ".bin", "inspector");

const { values: opts } = parseArgs({
  options: {
    binary: { type: "string", default: process.env.MCPC_BIN },
    workspace: { type: "string", default: process.env.MCPC_WORKSPACE },
  },
});
if (!opts.binary || !opts.workspace) {
  console.error("usage: node inspector-cli.mjs --binary PATH --workspace DIR");
  process.exit(2);
}

class Mismatch extends Error {}
function check(cond, msg) {
  if (!cond) throw new Mismatch(msg);
}

// The inspector keeps a server catalog (default ~/.mcp-inspector/mcp.json);
// point it at a throwaway file so a test run never touches the home folder.
const scratch = mkdtempSync(join(tmpdir(), "mcpc-inspector-"));
const env = { ...process.env, MCP_CATALOG_PATH: join(scratch, "mcp.json"), NO_COLOR: "1" };

// inspector runs `inspector --cli <target...> <flags...>` and returns its
// parsed JSON stdout; a non-zero exit or non-JSON output is a mismatch.
function inspector(label, target, flags) {
  const argv = ["--cli", ...target, ...flags];
  return new Promise((resolve, reject) => {
    execFile(INSPECTOR, argv, { env, timeout: 30000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      const cmd = `inspector ${argv.map((a) => (/[\s"{]/.test(a) ? `'${a}'` : a)).join(" ")}`;
      if (err) {
        reject(new Mismatch(`${label}: ${cmd} failed (${err.code ?? err.signal}):\n${stdout}\n${stderr}`));
        return;
      }
      try {
        resolve({ json: JSON.parse(stdout), stderr });
      } catch (e) {
        reject(new Mismatch(`${label}: ${cmd} printed no JSON (${e.message}):\n${stdout}\n${stderr}`));
      }
    });
  });
}

const stdioTarget = [opts.binary, "serve", "--workspace", opts.workspace];
const callFlags = (pairs) => ["--method", "tools/call", "--tool-name", TOOL, ...pairs.flatMap((p) => ["--tool-arg", p])];

function checkTools(label, json) {
  const tools = json.tools;
  check(Array.isArray(tools) && tools.length === 1 && tools[0].name === TOOL, `${label}: want exactly [${TOOL}], got ${JSON.stringify(tools?.map((t) => t.name))}`);
  const s = tools[0].inputSchema;
  check(s?.type === "object" && s.required?.includes("verb"), `${label}: inputSchema must be an object requiring verb`);
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    check(v !== null && typeof v === "object", `${label}: property ${k} has a non-object schema ${JSON.stringify(v)}`);
  }
  console.log(`ok  ${label}: ${TOOL} with ${Object.keys(s.properties).length} properties`);
}

// turnOf checks a tools/call result and returns its TurnResponse.
function turnOf(label, json) {
  check(json.isError !== true, `${label}: isError is true; denials must be normal results`);
  const text = json.content?.[0]?.text;
  check(json.content?.length === 1 && json.content[0].type === "text", `${label}: want one text content`);
  const sc = json.structuredContent;
  check(sc && isDeepStrictEqual(JSON.parse(text), sc), `${label}: structuredContent differs from the JSON text content`);
  check(sc.schemaVersion === "2.0.0", `${label}: schemaVersion ${sc.schemaVersion}`);
  return sc;
}

function startHTTP(workspace) {
  const child = spawn(opts.binary, ["serve", "--workspace", workspace, "--http", "127.0.0.1:0"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Mismatch(`HTTP server announced no address within 15s:\n${stderr}`)), 15000);
    child.stderr.on("data", (b) => {
      stderr += b;
      const m = stderr.match(/serving MCP at (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on("exit", (code) => reject(new Mismatch(`HTTP server exited with ${code}:\n${stderr}`)));
  });
  return { child, url };
}

let http;
try {
  // tools/list, plain and under the inspector's schema portability check.
  checkTools("stdio tools/list", (await inspector("stdio tools/list", stdioTarget, ["--method", "tools/list"])).json);
  checkTools("stdio tools/list --strict", (await inspector("stdio tools/list --strict", stdioTarget, ["--strict", "--method", "tools/list"])).json);

  // A read before any work: a denial, as a normal result.
  const pre = turnOf("stdio read before initialize_work", (await inspector("stdio read before initialize_work", stdioTarget,
    callFlags(["verb=read_file_lines", `args={"targetFile":"${TARGET}"}`]))).json);
  check(pre.state === "UNINITIALIZED" && pre.denials?.[0]?.code === "VERB_NOT_AVAILABLE",
    `stdio read before initialize_work: want UNINITIALIZED + VERB_NOT_AVAILABLE, got ${pre.state} ${pre.denyReasons}`);
  console.log(`ok  stdio read before initialize_work: ${pre.denyReasons[0]}`);

  // initialize_work with the prompt and lexemes as --tool-arg pairs.
  const init = turnOf("stdio initialize_work", (await inspector("stdio initialize_work", stdioTarget,
    callFlags(["verb=initialize_work", `originalPrompt=${PROMPT}`, 'args={"lexemes":["adp-alert","sdf-alert","dashboard"]}']))).json);
  check(init.state === "PLANNING" && (init.denials ?? []).length === 0, `stdio initialize_work: state ${init.state}, denials ${init.denyReasons}`);
  check(init.originalPrompt === PROMPT, `stdio initialize_work: originalPrompt ${JSON.stringify(init.originalPrompt)}, want the prompt verbatim`);
  check(init.workId && init.agentId && init.capabilities?.includes("submit_execution_plan"), `stdio initialize_work: no workId/agentId/capabilities`);
  check(init.contextPack?.files?.includes(TARGET), `stdio initialize_work: ${TARGET} not in the pack ${JSON.stringify(init.contextPack?.files)}`);
  check(init.planGraphSchema?.envelope?.workId === init.workId, `stdio initialize_work: planGraphSchema.envelope missing`);
  console.log(`ok  stdio initialize_work: ${init.workId} PLANNING, pack ${init.contextPack.files.length} files`);

  // Every inspector call starts its own mcpc process: this one joins the work
  // by workId through the shared store and reads a pack file.
  const read = turnOf("stdio read in a second process", (await inspector("stdio read in a second process", stdioTarget,
    callFlags(["verb=read_file_lines", `workId=${init.workId}`, `agentId=${init.agentId}`, `args={"targetFile":"${TARGET}","startLine":1,"endLine":3}`]))).json);
  check((read.denials ?? []).length === 0 && read.workId === init.workId && read.state === "PLANNING",
    `stdio read in a second process: ${read.state} ${read.denyReasons}`);
  check(read.result?.targetFile === TARGET && read.result?.startLine === 1 && read.result?.endLine === 3 && read.result?.content?.includes("adp-alert"),
    `stdio read in a second process: result ${JSON.stringify(read.result)}`);
  console.log(`ok  stdio read in a second process: lines 1-3 of ${read.result.totalLines}`);

  // --protocol-era auto: the inspector probes server/discover for the
  // 2026-07-28 ("modern") protocol and falls back to initialize. Whichever the
  // server offers on a transport, the call must work; a modern-era result
  // names the server in _meta.
  const era = (json) => (json._meta?.["io.modelcontextprotocol/serverInfo"]?.name === "mcpc" ? "modern 2026-07-28" : "legacy initialize");
  const auto = (await inspector("stdio auto-era read", stdioTarget, ["--protocol-era", "auto",
    ...callFlags(["verb=read_file_lines", `workId=${init.workId}`, `agentId=${init.agentId}`, `args={"targetFile":"${TARGET}"}`])])).json;
  const aread = turnOf("stdio auto-era read", auto);
  check((aread.denials ?? []).length === 0 && aread.result?.targetFile === TARGET, `stdio auto-era read: ${aread.denyReasons} ${JSON.stringify(aread.result)?.slice(0, 200)}`);
  console.log(`ok  stdio auto-era read (${era(auto)}): ${aread.result.totalLines} lines`);

  // Streamable HTTP: the inspector detects the transport from the /mcp URL.
  // Same workspace: the HTTP server joins the stdio servers' work by workId.
  http = startHTTP(opts.workspace);
  const url = await http.url;
  checkTools("http tools/list", (await inspector("http tools/list", [url], ["--method", "tools/list"])).json);
  const scope = turnOf("http read outside the pack", (await inspector("http read outside the pack", [url],
    callFlags(["verb=read_file_lines", `workId=${init.workId}`, `agentId=${init.agentId}`, 'args={"targetFile":"../../etc/passwd"}']))).json);
  check(scope.denials?.[0]?.code === "PACK_SCOPE_VIOLATION", `http read outside the pack: got ${scope.denyReasons}`);
  console.log(`ok  http read outside the pack (${url}): ${scope.denyReasons[0]}`);
  const hauto = (await inspector("http auto-era read", [url], ["--protocol-era", "auto",
    ...callFlags(["verb=read_file_lines", `workId=${init.workId}`, `agentId=${init.agentId}`, `args={"targetFile":"${TARGET}","startLine":2}`])])).json;
  const hread = turnOf("http auto-era read", hauto);
  check((hread.denials ?? []).length === 0 && hread.result?.startLine === 2, `http auto-era read: ${hread.denyReasons} ${JSON.stringify(hread.result)?.slice(0, 200)}`);
  console.log(`ok  http auto-era read (${era(hauto)}): lines ${hread.result.startLine}-${hread.result.endLine}`);
  console.log("OK: inspector CLI checks passed");
} catch (e) {
  console.log(`FAIL: ${e instanceof Mismatch ? e.message : e.stack ?? e}`);
  process.exitCode = 1;
} finally {
  http?.child.kill("SIGTERM");
  rmSync(scratch, { recursive: true, force: true });
}
