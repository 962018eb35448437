// mock-llm answers the role-play judge: recognised by the rubric's marker, answered with a JSON
// verdict computed from the request (identity 5 when a reply names the persona, 2 otherwise), the
// same bytes for the same request; a judge request without our user message is a 400.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { judgeUserMessage, ROLE_PLAY_RUBRIC } from "../../engine/benchmarks/dialogtool/role-play/rubric.js";
import { readVerdict } from "../../engine/benchmarks/dialogtool/role-play/verdict.js";

let mock: MockLlm;
before(async () => {
  mock = await startMockLlm({ scenarios: [] });
});
after(async () => {
  await mock.close();
});

async function ask(user: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${mock.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "mock",
      messages: [
        { role: "system", content: ROLE_PLAY_RUBRIC },
        { role: "user", content: user },
      ],
    }),
  });
  return { status: response.status, text: await response.text() };
}

const content = (text: string): string | null =>
  (JSON.parse(text) as { choices: { message: { content: string | null } }[] }).choices[0]!.message.content;

test("a reply that names the persona gets identity 5; none that does gets 2; the answer is deterministic", async () => {
  const named = await ask(
    judgeUserMessage({ name: "Nova" }, ["User: hi", "Assistant reply 1: Done.", "Assistant reply 2: Nova here, done."]),
  );
  assert.equal(named.status, 200);
  const verdict = readVerdict(content(named.text));
  assert.ok(verdict.ok);
  assert.deepEqual(verdict.verdict.criteria[0], { id: "identity", score: 5, reason: "Reply 2 names the persona, Nova." });
  const unnamed = readVerdict(content((await ask(judgeUserMessage({ name: "Nova" }, ["Assistant reply 1: Done."]))).text));
  assert.ok(unnamed.ok);
  assert.equal(unnamed.verdict.criteria[0]!.score, 2);
  assert.equal(unnamed.verdict.overall, 4.25);
  const again = await ask(
    judgeUserMessage({ name: "Nova" }, ["User: hi", "Assistant reply 1: Done.", "Assistant reply 2: Nova here, done."]),
  );
  assert.equal(content(again.text), content(named.text));
  assert.equal(mock.requests.at(-1)?.side, "judge");
});

test("a judge request whose user message is not the persona and conversation is a 400", async () => {
  const answer = await ask("Rate this please.");
  assert.equal(answer.status, 400);
  assert.match(answer.text, /needs the persona and the conversation/);
});
