// A real MCP SDK client from npm that drives one tool call through the mcp-tasks gateway as a task, and keeps
// polling the same task id across a gateway restart.
//
//   node gateway-client.mjs run  --url URL --token TOKEN --generation 2025|2026 --tool NAME --args JSON
//                                --task-file FILE [--deadline-seconds N]
//       creates the task, writes its id to FILE as soon as the gateway answers, polls it to the end (retrying while
//       the gateway is down) and prints "RESULT <json>" (exit 0) or "FAILED <reason>" (exit 1); the 2025 client
//       also prints "SESSION <id>": it keeps its one transport and session throughout, with no reconnect code (the
//       gateway's sessions are durable), and fails if the session changed or the gateway answered 404
//   node gateway-client.mjs peek --url URL --token TOKEN --generation 2025|2026 --task-id ID
//       asks for a task id with another principal's token: prints "NOT_FOUND <message>" (exit 0) when the gateway
//       does not show it, "VISIBLE <json>" (exit 3) when it does
//
// 2025-11-25: the TypeScript SDK v1 client (client.experimental.tasks: callToolStream, getTask, getTaskResult).
// 2026-07-28: @modelcontextprotocol/ext-tasks on the SDK v2 client pinned to 2026-07-28; its raw request path is
// ours (fetch), as ext-tasks requires of its host, and retries while the gateway cannot be reached.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { positionals, values: opts } = parseArgs({
  allowPositionals: true,
  options: {
    url: { type: "string" }, token: { type: "string" }, generation: { type: "string" },
    tool: { type: "string" }, args: { type: "string", default: "{}" }, "task-file": { type: "string" },
    "task-id": { type: "string" }, "deadline-seconds": { type: "string", default: "180" },
  },
});
const mode = positionals[0];
const deadline = Date.now() + Number(opts["deadline-seconds"]) * 1000;
const log = (line) => process.stderr.write(`[client ${opts.generation}] ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function require(name) {
  if (!opts[name]) {
    process.stderr.write(`missing --${name}\n`);
    process.exit(2);
  }
  return opts[name];
}

/** Whether an error means the gateway could not be reached or dropped the exchange (it is being restarted). */
function isOutage(error) {
  const text = `${error?.message ?? ""} ${error?.cause?.code ?? ""} ${error?.cause?.message ?? ""}`;
  return /ECONNREFUSED|ECONNRESET|fetch failed|socket hang up|other side closed|terminated|UND_ERR|Session not found|404/i
    .test(text);
}

/**
 * Whether an error means only that the gateway could not be reached or dropped the exchange while it was down: not a
 * 404, which a 2025 client keeping its session must never see from a gateway that was restarted.
 */
function isUnreachable(error) {
  const text = `${error?.message ?? ""} ${error?.cause?.code ?? ""} ${error?.cause?.message ?? ""}`;
  return !/Session not found|404/i.test(text)
    && /ECONNREFUSED|ECONNRESET|fetch failed|socket hang up|other side closed|terminated|UND_ERR/i.test(text);
}

/** Runs attempt() until it succeeds, retrying outages (those isGone tells) until the deadline. */
async function untilReachable(what, attempt, isGone = isOutage) {
  for (let round = 1; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isGone(error) || Date.now() > deadline) {
        throw error;
      }
      if (round === 1 || round % 20 === 0) {
        log(`${what}: gateway unreachable (${error.message}); retrying`);
      }
      await sleep(250);
    }
  }
}

// ---------------------------------------------------------------- 2025-11-25: TypeScript SDK v1
async function client2025() {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const client = new Client({ name: "mcp-tasks-e2e", version: "1.0.0" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(require("url")), {
    requestInit: { headers: { Authorization: `Bearer ${require("token")}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

async function run2025() {
  const { CallToolResultSchema } = await import("@modelcontextprotocol/sdk/types.js");
  const { client, transport } = await untilReachable("connect", client2025);
  const session = transport.sessionId;
  process.stdout.write(`SESSION ${session}\n`);
  log(`session ${session}`);
  const tools = await client.listTools();
  log(`tools: ${tools.tools.map((tool) => tool.name).join(", ")}`);
  let taskId;
  try {
    const stream = client.experimental.tasks.callToolStream(
      { name: require("tool"), arguments: JSON.parse(opts.args) }, CallToolResultSchema, { task: { ttl: 600000 } });
    for await (const message of stream) {
      if (message.type === "taskCreated") {
        taskId = message.task.taskId;
        writeFileSync(require("task-file"), taskId);
        log(`task created: ${taskId}`);
      } else if (message.type === "taskStatus") {
        log(`status ${message.task.status} ${message.task.statusMessage ?? ""}`);
      } else if (message.type === "result") {
        log(`result in the same session ${transport.sessionId}`);
        return message.result;
      } else if (message.type === "error") {
        throw message.error;
      }
    }
  } catch (error) {
    if (!taskId || !isUnreachable(error)) {
      throw error;
    }
    log(`lost the gateway while polling ${taskId} in session ${session}: ${error.message}`);
  }
  // the gateway went away: the same client goes on polling the same task id in the same transport and session
  // once a gateway answers again (the session is in the store: no new initialize, no reconnect code)
  for (;;) {
    const task = await untilReachable("tasks/get", () => client.experimental.tasks.getTask(taskId), isUnreachable);
    log(`status ${task.status} ${task.statusMessage ?? ""}`);
    if (["completed", "failed", "cancelled"].includes(task.status)) {
      if (task.status !== "completed") {
        throw new Error(`task ${taskId} ended ${task.status}: ${task.statusMessage ?? ""}`);
      }
      const result = await untilReachable("tasks/result",
        () => client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema), isUnreachable);
      if (transport.sessionId !== session) {
        throw new Error(`the session changed from ${session} to ${transport.sessionId}`);
      }
      log(`result in the same session ${session}`);
      return result;
    }
    await sleep(task.pollInterval ?? 500);
  }
}

async function peek2025() {
  const { client } = await client2025();
  try {
    return await client.experimental.tasks.getTask(require("task-id"));
  } finally {
    await client.close();
  }
}

// ---------------------------------------------------------------- 2026-07-28: ext-tasks on the SDK v2 client
const VERSION = "2026-07-28";
const framing = {
  protocolVersion: VERSION,
  clientInfo: { name: "mcp-tasks-e2e", version: "1.0.0" },
  clientCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } },
};
let nextId = 1;

/** The SEP-2243 header value: plain ASCII as is, anything else in the base64 sentinel. */
function headerValue(value) {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?base64?${Buffer.from(value).toString("base64")}?=`;
}

/** ext-tasks' host request path: one JSON-RPC request over HTTP POST, retried while the gateway is down. */
async function rawDispatch(request, options) {
  const message = { jsonrpc: "2.0", id: `e2e-${nextId++}`, ...request };
  const params = { ...(message.params ?? {}) };
  params._meta = {
    "io.modelcontextprotocol/protocolVersion": framing.protocolVersion,
    "io.modelcontextprotocol/clientInfo": framing.clientInfo,
    "io.modelcontextprotocol/clientCapabilities": framing.clientCapabilities,
    ...(params._meta ?? {}),
  };
  message.params = params;
  const name = params.name ?? params.uri ?? params.taskId;
  const headers = {
    "Content-Type": "application/json", Accept: "application/json, text/event-stream",
    Authorization: `Bearer ${require("token")}`, "MCP-Protocol-Version": VERSION, "Mcp-Method": message.method,
    ...(typeof name === "string" ? { "Mcp-Name": headerValue(name) } : {}),
  };
  const response = await untilReachable(message.method, () => fetch(require("url"), {
    method: "POST", headers, body: JSON.stringify(message), signal: options?.signal,
  }));
  const text = await response.text();
  const body = response.headers.get("content-type")?.includes("text/event-stream") ? lastSseMessage(text) : text;
  const parsed = JSON.parse(body);
  return parsed.error ? { kind: "error", error: parsed.error } : { kind: "result", result: parsed.result };
}

function lastSseMessage(text) {
  const data = text.split(/\r?\n\r?\n/).map((event) => event.split(/\r?\n/)
    .filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trimStart()).join("\n"))
    .filter((payload) => payload.includes('"id"'));
  return data[data.length - 1];
}

async function session2026() {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const { createTaskSessionFromClient } = await import("@modelcontextprotocol/ext-tasks/client");
  const client = new Client({ name: "mcp-tasks-e2e", version: "1.0.0" },
    { capabilities: {}, versionNegotiation: { mode: { pin: VERSION } } });
  const transport = new StreamableHTTPClientTransport(new URL(require("url")), {
    requestInit: { headers: { Authorization: `Bearer ${require("token")}` } },
  });
  await untilReachable("connect", () => client.connect(transport));
  return createTaskSessionFromClient(client, { endpointId: "mcp-tasks-gateway", rawDispatch, v2RequestFraming: framing });
}

async function run2026() {
  const { resultFromTaskOutcome } = await import("@modelcontextprotocol/ext-tasks/client");
  const session = await session2026();
  try {
    const execution = await session.callTool(require("tool"), JSON.parse(opts.args), { preference: "require" });
    const reference = execution.serializeReference();
    writeFileSync(require("task-file"), reference.taskId);
    log(`task created: ${reference.taskId}`);
    const { outcome } = await execution.settle();
    log(`outcome ${outcome.status}`);
    if (outcome.status !== "completed") {
      throw new Error(`task ${reference.taskId} ended ${outcome.status}: ${JSON.stringify(outcome.error ?? {})}`);
    }
    return resultFromTaskOutcome(outcome);
  } finally {
    await session.close().catch(() => {});
  }
}

async function peek2026() {
  const answer = await rawDispatch({ method: "tasks/get", params: { taskId: require("task-id") } });
  if (answer.kind === "error") {
    throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
  }
  return answer.result;
}

// ---------------------------------------------------------------- main
const is2026 = require("generation") === "2026";
try {
  if (mode === "run") {
    const result = await (is2026 ? run2026() : run2025());
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
    process.exit(result?.isError ? 1 : 0);
  } else if (mode === "peek") {
    try {
      const task = await (is2026 ? peek2026() : peek2025());
      process.stdout.write(`VISIBLE ${JSON.stringify(task)}\n`);
      process.exit(3);
    } catch (error) {
      process.stdout.write(`NOT_FOUND ${error.code ?? ""} ${error.message}\n`);
      process.exit(/not found/i.test(error.message) ? 0 : 4);
    }
  } else {
    process.stderr.write("usage: gateway-client.mjs run|peek --url URL --token TOKEN --generation 2025|2026 ...\n");
    process.exit(2);
  }
} catch (error) {
  log(`failed: ${error?.stack ?? error} ${error?.cause ? `cause: ${error.cause?.stack ?? JSON.stringify(error.cause)}` : ""}`
    + ` ${error?.data ? JSON.stringify(error.data) : ""}`);
  process.stdout.write(`FAILED ${error?.message ?? error}\n`);
  process.exit(1);
}
