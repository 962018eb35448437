// Tool creation end to end, through mock-llm over HTTP with the real openai client: the model's
// answers are Python files of ours (test/fixtures/tool-creation/). A correct implementation passes
// every case on every tool; a buggy one fails exactly the cases its bug touches; a malicious one is
// contained and scores 0.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createTool, type ToolCreationResult } from "../../../../engine/benchmarks/dialogtool/creation/create-tool.js";
import { CREATION_PACKS } from "../../../../engine/benchmarks/dialogtool/creation/packs.js";
import type { SandboxPaths } from "../../../../engine/benchmarks/dialogtool/creation/sandbox.js";
import { startMockLlm, type MockLlm } from "../../../../engine/mock-llm/server.js";
import { ChatModel } from "../../../../engine/roles/openai/chat-model.js";
import { modelSettings } from "../../../../engine/roles/openai/settings.js";
import { bundleSandbox } from "./sandbox-child-build.js";

const FIXTURES = "test/fixtures/tool-creation";
const pack = CREATION_PACKS.get("toolsandbox")!;

function answers(folder: string, port = 0): Map<string, string> {
  const dir = join(FIXTURES, folder);
  return new Map(
    readdirSync(dir).map((f) => [f.replace(/\.py$/, ""), readFileSync(join(dir, f), "utf8").replaceAll("PORT", String(port))]),
  );
}

let sandbox: SandboxPaths;
let removeBundle: () => void;
let listener: Server;
let port = 0;
let connections = 0;
const mocks: MockLlm[] = [];

before(async () => {
  ({ paths: sandbox, remove: removeBundle } = await bundleSandbox());
  listener = createServer((s) => {
    connections++;
    s.end();
  });
  await new Promise<void>((done) => listener.listen(0, "127.0.0.1", done));
  const address = listener.address();
  port = typeof address === "object" && address ? address.port : 0;
});

after(async () => {
  removeBundle();
  listener.close();
  await Promise.all(mocks.map((m) => m.close()));
});

async function create(folder: string, tools: readonly string[], callSeconds = 5): Promise<Map<string, ToolCreationResult>> {
  const mock = await startMockLlm({ scenarios: [], codeAnswers: answers(folder, port) });
  mocks.push(mock);
  const model = new ChatModel({ settings: modelSettings("coder", { base_url: `${mock.url}/v1`, max_retries: 0 }), apiKey: "test" });
  const out = new Map<string, ToolCreationResult>();
  for (const name of tools) {
    const specs = pack.specs.find((s) => s.tool === name)!;
    const tool = pack.toolByName(name)!;
    const limits = { loadSeconds: 60, callSeconds, wasmMemoryMb: 512, jsHeapMb: 256, memoryMb: 1024 };
    out.set(
      name,
      await createTool({ tool, app: pack.appOf(tool), specs, world: pack.world, model, label: "agent openai:coder", sandbox, limits }),
    );
  }
  return out;
}

const failed = (r: ToolCreationResult): string[] => r.cases.filter((c) => !c.pass).map((c) => c.label);

describe("tool creation through mock-llm", () => {
  it("a correct implementation passes every case, on every tool with cases (at least 10)", async () => {
    const tools = pack.specs.map((s) => s.tool);
    assert.ok(tools.length >= 10);
    const results = await create("correct", tools);
    for (const [name, r] of results) {
      assert.deepEqual(
        failed(r),
        [],
        `${name}: ${r.cases
          .filter((c) => !c.pass)
          .map((c) => `${c.label}: ${c.reason}`)
          .join("; ")}`,
      );
      assert.equal(r.passed, r.total);
      assert.ok(r.total >= 1);
      assert.equal(r.model_calls.length, 1, "one model call, with its telemetry");
      assert.equal(r.model_calls[0]?.attempts, 1);
      assert.match(r.code ?? "", new RegExp(`def ${name}\\(`));
    }
    assert.ok(
      [...results.values()].some((r) => r.cases.some((c) => c.kind === "state")),
      "state-dependent cases are among them",
    );
  });

  it("a buggy implementation fails exactly the cases its bug touches", async () => {
    const results = await create("buggy", ["set_wifi_status", "modify_contact", "timestamp_diff", "send_message_with_phone_number"]);
    // No low-battery check: only turning wifi on in low battery mode goes wrong.
    assert.deepEqual(failed(results.get("set_wifi_status")!), ["turn it on in low battery mode"]);
    // Changes the row in place: wrong only where the changed row was not already the last one.
    assert.deepEqual(failed(results.get("modify_contact")!), ["a new phone number"]);
    assert.match(results.get("modify_contact")!.cases[0]!.reason, /world\["CONTACT"\] after the call differs/);
    // Loses the sign of a negative difference.
    assert.deepEqual(failed(results.get("timestamp_diff")!), ["earlier than the first"]);
    // Stamps messages with 0 (both sends) and ignores cellular service (the state case).
    assert.deepEqual(failed(results.get("send_message_with_phone_number")!), [
      "to a contact",
      "to a number not in contacts",
      "with cellular service off",
    ]);
  });

  it("a malicious implementation is contained and scores 0", async () => {
    const results = await create(
      "malicious",
      ["get_wifi_status", "get_cellular_service_status", "get_current_timestamp", "remove_reminder"],
      2,
    );
    for (const [name, r] of results) assert.equal(r.passed, 0, `${name} scores 0`);
    assert.match(results.get("get_wifi_status")!.cases[0]!.reason, /FileNotFoundError/);
    assert.match(results.get("get_cellular_service_status")!.cases[0]!.reason, /OSError/);
    assert.equal(results.get("get_current_timestamp")!.cases[0]!.reason, "killed: a call took longer than 2 s");
    assert.match(results.get("remove_reminder")!.cases[0]!.reason, /PermissionError: processes cannot be started/);
    assert.equal(connections, 0, "nothing reached the listening port");
    assert.equal(existsSync("/tmp/toolsandbox-creation-pwned"), false);
  });
});
