// agenthooks for OpenCode: runs the workspace's Cursor hooks (.cursor/hooks.json
// and the other sources) for OpenCode's plugin hooks, through
// `agenthooks run --from opencode`. Written by `agenthooks install`; run it
// again rather than editing this file.
//
// Each hook spawns agenthooks with the hook's arguments as JSON on stdin
// ({"hook", "input", "output", "directory"}, and for a tool call the names
// of OpenCode's MCP servers, "mcp_servers"; or {"hook": "event", "event"})
// and acts on the answer: exit 2 or {"error"} blocks (throwing is how an
// OpenCode hook stops a tool call or a prompt, and the message is what the
// model sees); {"args"} rewrites the tool's arguments; {"context"} is added
// to a tool's output; {"followup"} is sent as the next prompt when the
// session goes idle. Any other failure (agenthooks missing, crashed, timed
// out) is logged and ignored: agenthooks itself answers exit 2 where a
// failure has to block.
import { spawn } from "node:child_process";

const BIN = "__AGENTHOOKS_BIN__";
const TIMEOUT_MS = __TIMEOUT_MS__;

// run resolves with agenthooks' exit code (-1: it did not finish), stdout
// and stderr. A run past TIMEOUT_MS is sent SIGTERM (agenthooks then stops
// its hooks), and SIGKILL two seconds later.
function run(hook, payload, directory) {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(BIN, ["run", "--from", "opencode", hook], { cwd: directory || undefined });
    } catch (e) {
      resolve({ code: -1, out: "", err: String(e) });
      return;
    }
    let out = "", err = "", settled = false;
    const settle = (code, why) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ code, out, err: why ? `${err}${why}` : err });
    };
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 2000).unref?.();
      settle(-1, `timed out after ${TIMEOUT_MS} ms`);
    }, TIMEOUT_MS);
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", (e) => settle(-1, String(e)));
    child.on("close", (code) => settle(code ?? -1));
    child.stdin.on("error", () => {}); // agenthooks may exit before reading it all
    child.stdin.end(JSON.stringify({ hook, ...payload, directory }));
  });
}

async function agenthooks({ client, directory }) {
  const log = (message) => {
    try {
      client?.app?.log?.({ body: { service: "agenthooks", level: "error", message } })?.catch?.(() => {});
    } catch {
      // logging must never break a hook
    }
    console.error(`agenthooks: ${message}`);
  };
  // ask runs a hook and returns agenthooks' answer, or throws to block.
  const ask = async (hook, payload) => {
    const { code, out, err } = await run(hook, payload, directory);
    let body = {};
    try {
      body = out.trim() ? JSON.parse(out) : {};
    } catch {
      log(`${hook}: answer is not JSON: ${out.trim()}`);
    }
    if (code === 2 || body.error) {
      throw new Error(body.error || err.trim() || `blocked by agenthooks (${hook})`);
    }
    if (code !== 0) log(`${hook}: exit ${code}: ${err.trim()}`);
    return body;
  };
  // mcpServers names the MCP servers OpenCode has, for agenthooks to tell
  // an MCP tool (<server>_<tool>) from another; undefined when OpenCode
  // cannot say. Asked only for an id with a "_", which OpenCode's own
  // tools do not have.
  const mcpServers = async (tool) => {
    if (!String(tool ?? "").includes("_")) return undefined;
    try {
      const res = await client?.mcp?.status?.();
      return res?.data && typeof res.data === "object" ? Object.keys(res.data) : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    "tool.execute.before": async (input, output) => {
      const body = await ask("tool.execute.before", { input, output, mcp_servers: await mcpServers(input?.tool) });
      if (body.args && output.args) Object.assign(output.args, body.args);
    },
    "tool.execute.after": async (input, output) => {
      const body = await ask("tool.execute.after", { input, output, mcp_servers: await mcpServers(input?.tool) });
      if (body.context) output.output = `${output.output ?? ""}\n\n${body.context}`;
    },
    "chat.message": async (input, output) => {
      await ask("chat.message", { input, output });
    },
    // OpenCode does not await event handlers nor catch their errors, so
    // this one never throws.
    event: async ({ event }) => {
      if (!["session.created", "session.idle", "session.deleted"].includes(event?.type)) return;
      try {
        const body = await ask("event", { event });
        const id = event.properties?.sessionID;
        if (body.followup && id) {
          const send = client.session.promptAsync ?? client.session.prompt;
          await send.call(client.session, { path: { id }, body: { parts: [{ type: "text", text: body.followup }] } });
        }
      } catch (e) {
        log(`${event.type}: ${e?.message ?? e}`);
      }
    },
  };
}

// OpenCode 1.x takes a default export with an id and server() as a "v1"
// plugin, and a default function as a legacy one: this is both.
agenthooks.id = "agenthooks";
agenthooks.server = agenthooks;
export default agenthooks;
