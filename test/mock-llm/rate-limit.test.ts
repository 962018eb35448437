// `--rate-limit N/s`: refusals by time, with the wait in the headers, as a hosted endpoint gives them.
import assert from "node:assert/strict";
import { test } from "node:test";
import OpenAI from "openai";
import { parseRateLimit, RateLimitSpecError, TokenBucket } from "../../engine/mock-llm/rate-limit.js";
import { startMockLlm } from "../../engine/mock-llm/server.js";
import { agentHistory, agentTools, sampleScenario } from "./conversation.js";

const scenario = sampleScenario("update_contact_relationship_with_relationship_adapted");
const request = { model: "gpt-4o", messages: agentHistory(scenario, []), tools: agentTools(scenario) };

test("--rate-limit takes N/s", () => {
  assert.deepEqual(parseRateLimit("20/s"), { perSecond: 20 });
  assert.deepEqual(parseRateLimit("0.5/s"), { perSecond: 0.5 });
  for (const bad of ["0/s", "20", "20/m", "-1/s", "x/s"]) assert.throws(() => parseRateLimit(bad), RateLimitSpecError, bad);
});

test("the bucket holds one second of requests and refills continuously", () => {
  let now = 0;
  const bucket = new TokenBucket({ perSecond: 4 }, () => now);
  assert.deepEqual(
    [1, 2, 3, 4].map(() => bucket.take()),
    [0, 0, 0, 0],
  );
  assert.equal(bucket.take(), 250, "the fifth waits a quarter second");
  now += 250;
  assert.equal(bucket.take(), 0);
  now += 10_000;
  assert.deepEqual(
    [1, 2, 3, 4, 5].map(() => bucket.take() === 0),
    [true, true, true, true, false],
    "never more than a second's worth at once",
  );
});

test("requests past the limit get 429 with Retry-After and retry-after-ms; later ones are served again", async () => {
  const server = await startMockLlm({ scenarios: [scenario], rateLimit: { perSecond: 5 } });
  try {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test", maxRetries: 0 });
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        openai.chat.completions.create(request).then(
          () => ({ status: 200, wait: null }),
          (e: unknown) => {
            assert.ok(e instanceof OpenAI.APIError);
            return { status: e.status, wait: Number(e.headers?.get("retry-after-ms")), after: e.headers?.get("retry-after") };
          },
        ),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    // A burst of 5, plus what refilled while the 20 requests were arriving (slow on a loaded machine).
    const served = outcomes.filter((o) => o.status === 200).length;
    assert.ok(served >= 5 && served <= 5 + Math.ceil(seconds * 5), `${served} served in ${seconds.toFixed(2)} s`);
    const refused = outcomes.filter((o) => o.status === 429);
    assert.equal(refused.length, 20 - served);
    for (const r of refused) {
      assert.ok(r.wait !== null && r.wait > 0 && r.wait <= 1000, `retry-after-ms ${r.wait}`);
      assert.equal((r as { after?: string }).after, "1");
    }
    await new Promise((resolve) => setTimeout(resolve, 450));
    await openai.chat.completions.create(request);
    assert.equal(server.requests.at(-1)?.status, 200);
  } finally {
    await server.close();
  }
});
