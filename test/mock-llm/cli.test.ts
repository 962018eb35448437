// `toolsandbox mock-llm`: help, loading scenario files, serving until stopped, and signals.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { Command, CommanderError } from "commander";
import { ExitError, EXIT } from "../../engine/runner/errors.js";
import type { CliIO } from "../../cli/io.js";
import { registerMockLlm, requestLine, serveMockLlm } from "../../cli/mock-llm.js";
import type { RecordedRequest } from "../../engine/mock-llm/server.js";
import { agentHistory, agentTools, client, sampleScenario } from "./conversation.js";
import { requireBuild } from "../cli/harness.js";

// The signal test runs the real bundled binary.
before(requireBuild);

const SCENARIO_FILE = "sample-scenarios/update_contact_relationship_with_relationship_adapted.scenario.yaml";
const scenario = sampleScenario("update_contact_relationship_with_relationship_adapted");

function captureIO(): { io: CliIO; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stderr: process.stderr,
    debug: false,
  };
  return { io, out, err };
}

function program(io: CliIO, written: string[]): Command {
  const p = new Command("toolsandbox")
    .exitOverride()
    .configureOutput({ writeOut: (t) => written.push(t), writeErr: (t) => written.push(t) });
  registerMockLlm(p, io);
  return p;
}

test("mock-llm --help documents the options, every fault kind and the selection keys", async () => {
  const written: string[] = [];
  await assert.rejects(
    program(captureIO().io, written).parseAsync(["node", "toolsandbox", "mock-llm", "--help"]),
    (e: unknown) => e instanceof CommanderError && e.exitCode === 0,
  );
  const help = written.join("");
  for (const option of ["--scenarios <paths...>", "--port <n>", "--fault <spec>", "--quiet"]) assert.ok(help.includes(option), option);
  for (const kind of [
    "latency:ms=N",
    "rate-limit[:retry_after=S]",
    "server-error[:status=C]",
    "drop",
    "malformed-arguments",
    "unknown-tool[:name=X]",
  ])
    assert.ok(help.includes(kind), kind);
  for (const key of ["every=N", "first=N", "times=N", "rate=P", "seed=S", "role=agent|user", "mock/<scenario name>"])
    assert.ok(help.includes(key), key);
});

test("a bad --fault or --port is a usage error naming the problem", async () => {
  for (const [args, message] of [
    [["--fault", "latency"], /latency: give the delay/],
    [["--fault", "explode"], /unknown fault "explode"/],
    [["--port", "70000"], /the port must be a whole number from 0 to 65535/],
  ] as const) {
    const written: string[] = [];
    await assert.rejects(
      program(captureIO().io, written).parseAsync(["node", "toolsandbox", "mock-llm", "--scenarios", SCENARIO_FILE, ...args]),
      (e: unknown) => e instanceof CommanderError && e.exitCode !== 0,
    );
    assert.match(written.join(""), message);
  }
});

test("serves the scenarios until stopped: prints the base URL, one line per request, then a summary", async () => {
  const { io, out } = captureIO();
  const stop = new AbortController();
  const serving = serveMockLlm({ scenarios: [SCENARIO_FILE], port: 0, fault: [{ kind: "latency", ms: 1 }] }, io, stop.signal);
  for (let i = 0; i < 200 && out.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  const baseUrl = /OpenAI base URL (http:\/\/127\.0\.0\.1:\d+)\/v1$/.exec(out[0] ?? "")?.[1];
  assert.ok(baseUrl, `the first line gives the URL: ${out[0]}`);
  assert.match(out[1] ?? "", /1 scenario; faults: latency:ms=1; Ctrl-C stops/);
  const completion = await client(baseUrl).chat.completions.create({
    model: "gpt-4o",
    messages: agentHistory(scenario, []),
    tools: agentTools(scenario),
  });
  assert.equal(completion.choices[0]?.message.tool_calls?.length, 1);
  assert.equal(out[2], `#1 agent ${scenario.name} step 1 -> 200 [latency:ms=1]`);
  stop.abort();
  await serving;
  assert.equal(out.at(-1), "mock-llm: stopped after 1 request");
});

test("scenario files with errors are printed as diagnostics and nothing is served", async () => {
  const { io, err } = captureIO();
  await assert.rejects(serveMockLlm({ scenarios: ["test/fixtures/broken"], port: 0, fault: [] }, io, AbortSignal.abort()), (e: unknown) => {
    assert.ok(e instanceof ExitError);
    assert.equal(e.exitCode, EXIT.failed);
    assert.match(e.message, /1 of 1 scenario file has errors; the server was not started/);
    return true;
  });
  assert.ok(
    err.some((l) => /malformed\.scenario\.yaml:\d+:\d+: error/.test(l)),
    err.join("\n"),
  );
});

test("a port already in use is an input/output error with a hint", async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const address = blocker.address();
  assert.ok(address !== null && typeof address === "object");
  try {
    await assert.rejects(
      serveMockLlm({ scenarios: [SCENARIO_FILE], port: address.port, fault: [] }, captureIO().io, AbortSignal.abort()),
      (e: unknown) => {
        assert.ok(e instanceof ExitError);
        assert.equal(e.exitCode, EXIT.io);
        assert.match(e.message, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${address.port}: the port is in use`));
        return true;
      },
    );
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }
});

test("as a process it serves until SIGTERM, then closes and exits 0", async () => {
  const child = spawn(process.execPath, ["dist/cli.js", "mock-llm", "--port", "0", "--scenarios", SCENARIO_FILE], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  try {
    let stdout = "";
    child.stdout.setEncoding("utf8");
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL within 20 s; stdout: ${stdout}`)), 20_000);
      child.stdout.on("data", (chunk: string) => {
        stdout += chunk;
        const match = /OpenAI base URL (\S+)\/v1/.exec(stdout);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once("exit", () => reject(new Error(`exited early; stdout: ${stdout}`)));
    });
    const completion = await client(url).chat.completions.create({
      model: `mock/${scenario.name}`,
      messages: agentHistory(scenario, []),
      tools: agentTools(scenario),
    });
    assert.equal(completion.choices[0]?.message.tool_calls?.length, 1);
    const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
    child.kill("SIGTERM");
    assert.equal(await exited, 0);
    assert.match(stdout, /stopped after 1 request/);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
});

test("request log lines say what was played, which faults hit and why a request was refused", () => {
  const base: RecordedRequest = {
    number: 4,
    method: "POST",
    path: "/v1/chat/completions",
    body: null,
    rawBody: "",
    side: "agent",
    scenario: "s",
    step: 2,
    faults: [],
    status: 200,
    error: null,
  };
  assert.equal(requestLine(base), "#4 agent s step 2 -> 200");
  assert.equal(requestLine({ ...base, side: "user", step: null }), "#4 user s past the reference -> 200");
  assert.equal(requestLine({ ...base, faults: ["drop"], status: null }), "#4 agent s step 2 -> dropped [drop]");
  assert.equal(
    requestLine({ ...base, faults: ["rate-limit:first=1"], status: 429, error: "Rate limit reached" }),
    "#4 agent s step 2 -> 429 [rate-limit:first=1]",
  );
  assert.equal(
    requestLine({ ...base, step: null, status: 400, error: "Reference step 2 calls x" }),
    "#4 agent s -> 400: Reference step 2 calls x",
  );
  assert.equal(
    requestLine({ ...base, scenario: null, step: null, status: 400, error: "No loaded scenario" }),
    "#4 agent -> 400: No loaded scenario",
  );
  assert.equal(
    requestLine({ ...base, method: "GET", path: "/v1/models", side: null, scenario: null, step: null }),
    "#4 GET /v1/models -> 200",
  );
});
