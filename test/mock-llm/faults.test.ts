// Injected faults: their syntax, which requests they hit, and what the openai client sees.
import { test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { FaultPlan, type RequestFacts } from "../../engine/mock-llm/fault-plan.js";
import { describeFault, parseFault, type Fault } from "../../engine/mock-llm/faults.js";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { agentHistory, agentTools, client, endConversationTool, sampleScenario, userHistory } from "./conversation.js";

const scenario = sampleScenario("update_contact_relationship_with_relationship_adapted");
const agentRequest = { model: "gpt-4o", messages: agentHistory(scenario, []), tools: agentTools(scenario) };
const userRequest = { model: "gpt-4o", messages: userHistory(scenario, scenario.reference.slice(0, 3)), tools: endConversationTool() };

async function withoutFaults<T>(body: (server: MockLlm) => Promise<T>): Promise<T> {
  const server = await startMockLlm({ scenarios: [scenario] });
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

async function withServer(faults: readonly Fault[], body: (server: MockLlm) => Promise<void>): Promise<void> {
  const server = await startMockLlm({ scenarios: [scenario], faults });
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

test("--fault syntax: kind, kind-specific options and selection keys", () => {
  assert.deepEqual(parseFault("latency:ms=200"), { kind: "latency", ms: 200 });
  assert.deepEqual(parseFault("rate-limit:retry_after=2,every=3"), { kind: "rate-limit", retryAfter: 2, every: 3 });
  assert.deepEqual(parseFault("server-error"), { kind: "server-error" });
  assert.deepEqual(parseFault("server-error:status=503,first=2,role=user"), { kind: "server-error", status: 503, first: 2, role: "user" });
  assert.deepEqual(parseFault("drop:rate=0.25,seed=7,times=3"), { kind: "drop", rate: 0.25, seed: 7, times: 3 });
  assert.deepEqual(parseFault("unknown-tool:name=teleport"), { kind: "unknown-tool", name: "teleport" });
  assert.deepEqual(parseFault("malformed-arguments:role=agent"), { kind: "malformed-arguments", role: "agent" });
  assert.deepEqual(parseFault("extra-call:tool=search_contacts,times=1"), { kind: "extra-call", tool: "search_contacts", times: 1 });
  for (const spec of [
    "latency:ms=200",
    "rate-limit:retry_after=2,every=3",
    "drop:times=3,rate=0.25,seed=7",
    "server-error:status=503,first=2,role=user",
    "extra-call:tool=search_contacts,times=1",
  ]) {
    assert.equal(describeFault(parseFault(spec)), spec);
  }
});

test("--fault syntax errors say what is wrong and what is accepted", () => {
  const cases: [string, RegExp][] = [
    [
      "timeout",
      /unknown fault "timeout"; the kinds are latency, rate-limit, server-error, drop, malformed-arguments, unknown-tool, extra-call/,
    ],
    ["latency", /give the delay, e.g. latency:ms=200/],
    ["latency:ms=fast", /ms must be a number, got "fast"/],
    ["latency:ms=-5", /ms must be a number of milliseconds, at least 0/],
    ["drop:ms=5", /unknown option "ms"; accepted: every, first, times, rate, seed, role/],
    ["drop:every", /"every" is not key=value/],
    ["drop:every=0", /every must be a whole number of at least 1/],
    ["drop:first=1.5", /first must be a whole number/],
    ["drop:rate=2", /rate must be between 0 and 1/],
    ["drop:role=system", /role must be agent, user, judge or reviewer, got "system"/],
    ["drop:every=2,every=3", /"every" is given twice/],
    ["server-error:status=404", /status must be from 500 to 599/],
    ["rate-limit:retry_after=0.5", /retry_after must be a whole number of seconds/],
    ["unknown-tool:name=two words", /name must be a valid tool name/],
    ["extra-call", /give the tool, e\.g\. extra-call:tool=search_contacts/],
    ["extra-call:tool=a b", /tool must be a valid tool name/],
  ];
  for (const [spec, message] of cases) assert.throws(() => parseFault(spec), message, spec);
});

test("selection: every, first, times and role pick the same requests every time", () => {
  const agent: RequestFacts = { side: "agent", replyHasToolCalls: true, offersTools: true };
  const user: RequestFacts = { side: "user", replyHasToolCalls: false, offersTools: true };
  const pattern = (fault: Fault, facts: RequestFacts[] = Array(8).fill(agent)): string => {
    const plan = new FaultPlan([fault]);
    return facts.map((f) => (plan.select(f).length > 0 ? "x" : ".")).join("");
  };
  assert.equal(pattern({ kind: "drop" }), "xxxxxxxx");
  assert.equal(pattern({ kind: "drop", every: 3 }), "..x..x..");
  assert.equal(pattern({ kind: "drop", first: 2 }), "xx......");
  assert.equal(pattern({ kind: "drop", every: 2, times: 2 }), ".x.x....");
  assert.equal(pattern({ kind: "drop", role: "user", every: 2 }, [agent, user, agent, user, user, agent]), "...x..");
  // malformed-arguments only counts replies that carry tool calls.
  assert.equal(pattern({ kind: "malformed-arguments", first: 1 }, [user, agent, agent]), ".x.");
});

test("selection: rate=P is reproducible from the seed and hits about P of the requests", () => {
  const agent: RequestFacts = { side: "agent", replyHasToolCalls: true, offersTools: true };
  const run = (seed: number, rate = 0.3): string => {
    const plan = new FaultPlan([{ kind: "server-error", rate, seed }]);
    return Array.from({ length: 400 }, () => (plan.select(agent).length > 0 ? "x" : ".")).join("");
  };
  assert.equal(run(7), run(7));
  assert.notEqual(run(7), run(8));
  const hits = [...run(7)].filter((c) => c === "x").length;
  assert.ok(hits > 80 && hits < 160, `${hits} of 400 at rate 0.3`);
  assert.equal(run(1, 0), ".".repeat(400));
  assert.equal(run(1, 1), "x".repeat(400));
});

test("a fault that answers the request hides it from the faults listed after it", () => {
  const plan = new FaultPlan([
    { kind: "latency", ms: 5 },
    { kind: "rate-limit", first: 1 },
    { kind: "server-error", first: 1 },
  ]);
  const agent: RequestFacts = { side: "agent", replyHasToolCalls: true, offersTools: true };
  assert.deepEqual(
    plan.select(agent).map((f) => f.kind),
    ["latency", "rate-limit"],
  );
  // server-error first sees the second request, which is its first.
  assert.deepEqual(
    plan.select(agent).map((f) => f.kind),
    ["latency", "server-error"],
  );
  assert.deepEqual(
    plan.select(agent).map((f) => f.kind),
    ["latency"],
  );
});

test("latency delays the answer by at least the given milliseconds", async () => {
  await withServer([{ kind: "latency", ms: 150 }], async (server) => {
    const start = performance.now();
    const completion = await client(server.url).chat.completions.create(agentRequest);
    assert.ok(performance.now() - start >= 145, "answered after the delay");
    assert.equal(completion.choices[0]?.message.tool_calls?.length, 1);
    assert.deepEqual(server.requests[0]?.faults, ["latency:ms=150"]);
  });
});

test("rate-limit: a 429 with Retry-After, which the openai client honours and then succeeds", async () => {
  await withServer([{ kind: "rate-limit", retryAfter: 1, first: 1 }], async (server) => {
    await assert.rejects(client(server.url, 0).chat.completions.create(agentRequest), (e: unknown) => {
      assert.ok(e instanceof OpenAI.RateLimitError);
      assert.equal(e.status, 429);
      assert.equal(e.headers?.get("retry-after"), "1");
      assert.equal(e.code, "rate_limit_exceeded");
      return true;
    });
  });
  await withServer([{ kind: "rate-limit", retryAfter: 1, first: 1 }], async (server) => {
    const start = performance.now();
    const completion = await client(server.url, 1).chat.completions.create(agentRequest);
    assert.equal(completion.choices[0]?.message.tool_calls?.length, 1);
    assert.ok(performance.now() - start >= 950, "the client waited for Retry-After");
    assert.deepEqual(
      server.requests.map((r) => r.status),
      [429, 200],
    );
  });
});

test("server-error: a 500 (or the given 5xx) that a retrying client gets past", async () => {
  await withServer([{ kind: "server-error", first: 1 }], async (server) => {
    await assert.rejects(client(server.url, 0).chat.completions.create(agentRequest), OpenAI.InternalServerError);
    const completion = await client(server.url, 0).chat.completions.create(agentRequest);
    assert.equal(completion.choices[0]?.message.tool_calls?.length, 1);
  });
  await withServer([{ kind: "server-error", status: 503, first: 1 }], async (server) => {
    await assert.rejects(
      client(server.url, 0).chat.completions.create(agentRequest),
      (e: unknown) => e instanceof OpenAI.APIError && e.status === 503,
    );
  });
  await withServer([{ kind: "server-error", first: 1 }], async (server) => {
    await client(server.url, 1).chat.completions.create(agentRequest);
    assert.deepEqual(
      server.requests.map((r) => r.status),
      [500, 200],
    );
  });
});

test("drop: the connection closes without an answer, a connection error for the client", async () => {
  await withServer([{ kind: "drop", first: 1 }], async (server) => {
    await assert.rejects(client(server.url, 0).chat.completions.create(agentRequest), OpenAI.APIConnectionError);
    assert.equal(server.requests[0]?.status, null);
    const completion = await client(server.url, 1).chat.completions.create(agentRequest);
    assert.equal(completion.choices[0]?.message.tool_calls?.length, 1);
  });
});

test("malformed-arguments: the tool call's arguments are not valid JSON", async () => {
  await withServer([{ kind: "malformed-arguments" }], async (server) => {
    const completion = await client(server.url).chat.completions.create(agentRequest);
    const call = completion.choices[0]?.message.tool_calls?.[0];
    assert.ok(call?.type === "function");
    assert.equal(call.function.name, "search_contacts");
    assert.throws(() => JSON.parse(call.function.arguments), SyntaxError);
    assert.equal(call.function.arguments, '{"relationship":"friend"');
  });
});

test("unknown-tool: a call to a tool the request does not offer; role=agent spares the user", async () => {
  await withServer([{ kind: "unknown-tool", role: "agent" }], async (server) => {
    const openai = client(server.url);
    const completion = await openai.chat.completions.create(agentRequest);
    const calls = completion.choices[0]?.message.tool_calls ?? [];
    assert.equal(calls.length, 1);
    assert.ok(calls[0]?.type === "function");
    const offered = agentRequest.tools.map((t) => (t.type === "function" ? t.function.name : ""));
    assert.ok(!offered.includes(calls[0].function.name), `${calls[0].function.name} is not on offer`);
    const user = await openai.chat.completions.create(userRequest);
    const userCall = user.choices[0]?.message.tool_calls?.[0];
    assert.ok(userCall?.type === "function");
    assert.equal(userCall.function.name, "end_conversation");
  });
});

test("extra-call: a call to the named tool in place of the step, which the next answer still gives", async () => {
  await withServer([{ kind: "extra-call", tool: "search_contacts", role: "agent", times: 1 }], async (server) => {
    const openai = client(server.url);
    const first = await openai.chat.completions.create(agentRequest);
    const detour = first.choices[0]?.message.tool_calls ?? [];
    assert.equal(detour.length, 1);
    assert.ok(detour[0]?.type === "function");
    assert.equal(detour[0].function.name, "search_contacts");
    assert.equal(detour[0].function.arguments, "{}");
    // The detour answered, the model asks again: it gets the step the detour put off, as it would have without it.
    const plain = await withoutFaults((other) => client(other.url).chat.completions.create(agentRequest));
    const afterDetour = await openai.chat.completions.create({
      ...agentRequest,
      messages: [
        ...agentRequest.messages,
        { role: "assistant", content: null, tool_calls: detour },
        { role: "tool", tool_call_id: detour[0].id, content: "[]" },
      ],
    });
    assert.deepEqual(
      afterDetour.choices[0]?.message.tool_calls?.map((c) => (c.type === "function" ? c.function.name : "")),
      plain.choices[0]?.message.tool_calls?.map((c) => (c.type === "function" ? c.function.name : "")),
    );
  });
});

test("close() does not wait for a request that is still in its latency", async () => {
  const server = await startMockLlm({ scenarios: [scenario], faults: [{ kind: "latency", ms: 60_000 }] });
  const pending = client(server.url).chat.completions.create(agentRequest);
  pending.catch(() => undefined);
  while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
  const start = performance.now();
  await server.close();
  assert.ok(performance.now() - start < 5_000);
  await assert.rejects(pending, OpenAI.APIConnectionError);
});

test("invalid programmatic faults are refused at start", async () => {
  await assert.rejects(
    startMockLlm({ scenarios: [scenario], faults: [{ kind: "drop", every: 0 }] }),
    /every must be a whole number of at least 1/,
  );
});
