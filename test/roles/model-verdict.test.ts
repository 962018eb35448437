// One model verdict on a finished episode (roles/openai/model-verdict.ts), the call the role-play
// judge and the failure reviewer both make: through the openai client over HTTP to mock-llm, the
// answer read by the asker's reader, every way it goes wrong a one-line failure, and a stopped run
// never judged.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { answerObject, unlessStopped, VerdictModel, type VerdictReading } from "../../engine/roles/openai/model-verdict.js";
import { modelSettings } from "../../engine/roles/openai/settings.js";
import { REVIEW_INSTRUCTIONS } from "../../engine/runner/failure-review.js";

let mock: MockLlm;
before(async () => {
  mock = await startMockLlm({ scenarios: [] });
});
after(async () => {
  await mock.close();
});

const model = (baseUrl: string): VerdictModel =>
  new VerdictModel({ settings: modelSettings("mock", { base_url: baseUrl, max_retries: 0 }), apiKey: "k-1" });

const REQUEST = ["Scenario: s", "User goal: g", "End: agent_ended", "Score: 0.00", "Milestone m1: not reached"].join("\n");

test("a verdict asked of mock-llm comes back read, with the call's telemetry", async () => {
  const read = (content: string | null): VerdictReading<string> => {
    const answer = answerObject(content, "reviewer");
    return answer.ok ? { ok: true, verdict: String(answer.verdict.party) } : answer;
  };
  const outcome = await model(`${mock.url}/v1`).ask("reviewer", REVIEW_INSTRUCTIONS, REQUEST, read);
  assert.ok(outcome.ok, JSON.stringify(outcome));
  assert.equal(outcome.verdict, "agent");
  assert.equal(outcome.call?.model, "mock");
  assert.equal(mock.requests.at(-1)?.side, "reviewer");
});

test("an answer the reader refuses is a one-line failure that keeps the call", async () => {
  const outcome = await model(`${mock.url}/v1`).ask("reviewer", REVIEW_INSTRUCTIONS, REQUEST, () => ({ ok: false, problem: "no party" }));
  assert.deepEqual(outcome.ok ? null : outcome.failure, "no party");
  assert.ok(outcome.call !== undefined);
});

test("an endpoint that cannot be reached is a failure naming the asker, never an exception", async () => {
  const outcome = await model("http://127.0.0.1:9/v1").ask("judge", "rubric", "request", () => ({ ok: true, verdict: 1 }));
  assert.equal(outcome.ok, false);
  assert.match(outcome.ok ? "" : outcome.failure, /^judge openai:mock: /);
  assert.doesNotMatch(outcome.ok ? "" : outcome.failure, /\n/);
});

test("answerObject takes a JSON object, fenced or not, and names what else it got", () => {
  assert.deepEqual(answerObject('```json\n{"a": 1}\n```', "judge"), { ok: true, verdict: { a: 1 } });
  assert.deepEqual(answerObject(' {"a": 1} ', "judge"), { ok: true, verdict: { a: 1 } });
  assert.deepEqual(answerObject(null, "judge"), { ok: false, problem: "the judge answered with no text" });
  assert.deepEqual(answerObject("[1, 2]", "reviewer"), { ok: false, problem: 'the reviewer\'s answer is not a JSON object: "[1, 2]"' });
  const long = answerObject(`I think ${"very ".repeat(40)}much`, "judge");
  assert.ok(!long.ok);
  assert.match(long.problem, /^the judge's answer is not JSON: "I think very .{60,}\.\.\."$/);
});

test("a run being stopped is not judged: before the call, or when the call fails under the stop", async () => {
  const stopped = new AbortController();
  stopped.abort();
  let asked = false;
  assert.equal(
    await unlessStopped(stopped.signal, async () => {
      asked = true;
      return 1;
    }),
    null,
  );
  assert.equal(asked, false);
  const stopping = new AbortController();
  const cut = unlessStopped(stopping.signal, async () => {
    stopping.abort();
    throw new Error("aborted");
  });
  assert.equal(await cut, null);
  await assert.rejects(
    unlessStopped(new AbortController().signal, async () => {
      throw new Error("engine bug");
    }),
    /engine bug/,
  );
});
