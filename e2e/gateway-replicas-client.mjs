// Real MCP SDK clients from npm driving one session through gateway replicas behind a round-robin TCP proxy.
//
//   node gateway-replicas-client.mjs --url URL --token TOKEN
//
// Every HTTP request opens a TCP connection of its own (the fetch below: Node's http with no agent), so a proxy that
// sends each connection to the next replica spreads one session's requests over all of them. The unmodified
// TypeScript SDK 1.32.2 client (2025-11-25) initializes once, lists the tools, calls the plain `reference__echo`,
// then `reference__work` as a task (client.experimental.tasks.callToolStream: tools/call with task, tasks/get polls,
// tasks/result), and polls and fetches that task again; any error (a 404 `Session not found` among them) fails the
// run. Then a raw 2026-07-28 client creates a task and follows it with subscriptions/listen to its end: the
// notifications come from the store's changes, whichever replica's worker drives the task.
// Prints "REQUESTS <n>" and "PASS" (exit 0), or "FAILED <reason>" (exit 1).
import http from "node:http";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";

const { values: opts } = parseArgs({ options: { url: { type: "string" }, token: { type: "string" } } });
if (!opts.url || !opts.token) {
  process.stderr.write("usage: gateway-replicas-client.mjs --url URL --token TOKEN\n");
  process.exit(2);
}
const log = (line) => process.stderr.write(`[replicas-client] ${line}\n`);
let requests = 0;

/** fetch over a new TCP connection per request (no keep-alive, no pool): the proxy's round robin sees each one. */
function freshFetch(input, init = {}) {
  requests++;
  return new Promise((resolve, reject) => {
    const headers = Object.fromEntries(new Headers(init.headers ?? {}));
    const request = http.request(String(input), {
      method: init.method ?? "GET", headers, agent: false, signal: init.signal ?? undefined,
    }, (response) => {
      const answer = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        answer.set(name, Array.isArray(value) ? value.join(", ") : value);
      }
      const empty = [101, 204, 205, 304].includes(response.statusCode);
      resolve(new Response(empty ? null : Readable.toWeb(response),
        { status: response.statusCode, statusText: response.statusMessage, headers: answer }));
    });
    request.on("error", reject);
    if (init.body) {
      request.write(init.body);
    }
    request.end();
  });
}

function check(condition, what) {
  if (!condition) {
    throw new Error(what);
  }
}

const textOf = (result) => result?.content?.find((item) => item.type === "text")?.text;

// ---------------------------------------------------------------- 2025-11-25: the SDK v1 client, one session
async function run2025() {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const { CallToolResultSchema } = await import("@modelcontextprotocol/sdk/types.js");
  const client = new Client({ name: "mcp-tasks-replicas", version: "1.0.0" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(opts.url), {
    requestInit: { headers: { Authorization: `Bearer ${opts.token}` } }, fetch: freshFetch,
  });
  await client.connect(transport);
  const session = transport.sessionId;
  check(session, "initialize named no session");
  log(`session ${session}`);
  try {
    for (let round = 0; round < 2; round++) {
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      check(tools.includes("reference__work") && tools.includes("reference__echo"), `tools: ${tools}`);
    }
    const echoed = await client.callTool({ name: "reference__echo", arguments: { text: "through replicas" } });
    check(textOf(echoed) === "through replicas", `echo answered ${JSON.stringify(echoed)}`);
    log("plain call answered");

    let taskId;
    let result;
    const stream = client.experimental.tasks.callToolStream({ name: "reference__work",
      arguments: { durationMs: 3000, result: "done across replicas" } }, CallToolResultSchema, { task: { ttl: 600000 } });
    for await (const message of stream) {
      if (message.type === "taskCreated") {
        taskId = message.task.taskId;
        log(`task ${taskId}`);
      } else if (message.type === "taskStatus") {
        log(`status ${message.task.status}`);
      } else if (message.type === "result") {
        result = message.result;
      } else if (message.type === "error") {
        throw message.error;
      }
    }
    check(textOf(result) === "done across replicas", `task result ${JSON.stringify(result)}`);
    for (let poll = 0; poll < 4; poll++) {
      const task = await client.experimental.tasks.getTask(taskId);
      check(task.status === "completed", `tasks/get said ${task.status}`);
      const again = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
      check(textOf(again) === "done across replicas", `tasks/result answered ${JSON.stringify(again)}`);
    }
    check(transport.sessionId === session, `the session changed from ${session} to ${transport.sessionId}`);
    log(`task polled and fetched, same session ${session}`);
  } finally {
    await client.close();
  }
}

// ---------------------------------------------------------------- 2026-07-28: raw requests, subscriptions/listen
const VERSION = "2026-07-28";
let nextId = 1;

async function post(method, params, name) {
  const id = `r-${nextId++}`;
  const body = JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: {
    "io.modelcontextprotocol/protocolVersion": VERSION,
    "io.modelcontextprotocol/clientInfo": { name: "mcp-tasks-replicas", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
  } } });
  const response = await freshFetch(opts.url, { method: "POST", body, headers: {
    "Content-Type": "application/json", Accept: "application/json, text/event-stream",
    Authorization: `Bearer ${opts.token}`, "MCP-Protocol-Version": VERSION, "Mcp-Method": method,
    ...(name ? { "Mcp-Name": name } : {}),
  } });
  const text = await response.text();
  check(response.status === 200, `${method}: HTTP ${response.status} ${text}`);
  const messages = response.headers.get("content-type")?.includes("text/event-stream")
    ? text.split(/\r?\n\r?\n/).map((event) => event.split(/\r?\n/).filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart()).join("\n")).filter((data) => data).map((data) => JSON.parse(data))
    : [JSON.parse(text)];
  return { id, messages };
}

async function run2026() {
  const created = (await post("tools/call", { name: "reference__work",
    arguments: { durationMs: 2000, result: "told, not asked" } }, "reference__work")).messages.at(-1);
  check(created.result?.resultType === "task", `tools/call answered ${JSON.stringify(created)}`);
  const taskId = created.result.taskId;
  log(`2026 task ${taskId}; listening`);
  const { id, messages } = await post("subscriptions/listen", { notifications: { taskIds: [taskId] } });
  const [ack, ...rest] = messages;
  const end = rest.pop();
  check(ack?.method === "notifications/subscriptions/acknowledged"
    && ack.params.notifications.taskIds?.[0] === taskId, `acknowledgement ${JSON.stringify(ack)}`);
  check(rest.length > 0 && rest.every((m) => m.method === "notifications/tasks"
    && m.params._meta["io.modelcontextprotocol/subscriptionId"] === id), `notifications ${JSON.stringify(rest)}`);
  const last = rest.at(-1).params;
  check(last.status === "completed" && textOf(last.result) === "told, not asked", `last ${JSON.stringify(last)}`);
  check(end?.id === id && end.result?._meta?.["io.modelcontextprotocol/subscriptionId"] === id,
    `end ${JSON.stringify(end)}`);
  log(`listen: ${rest.map((m) => m.params.status).join(" -> ")}, then ended`);
  const polled = (await post("tasks/get", { taskId }, taskId)).messages.at(-1);
  check(polled.result?.status === "completed", `tasks/get answered ${JSON.stringify(polled)}`);
}

try {
  await run2025();
  await run2026();
  process.stdout.write(`REQUESTS ${requests}\nPASS\n`);
} catch (error) {
  process.stdout.write(`FAILED ${error?.message ?? error}\n`);
  process.exit(1);
}
