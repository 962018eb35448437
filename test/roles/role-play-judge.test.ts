// The role-play judge on its own: the persona paragraph in the agent's system message, the
// judge's request, and its answer read as the rubric asks, every malformed answer a one-line
// failure recorded in the judgement (never an exception).
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Message } from "../../engine/episode/types.js";
import { RolePlayJudge } from "../../engine/benchmarks/dialogtool/role-play/role-play-judge.js";
import {
  readJudgeRequest,
  ROLE_PLAY_CRITERIA,
  ROLE_PLAY_RUBRIC,
  RUBRIC_MARKER,
} from "../../engine/benchmarks/dialogtool/role-play/rubric.js";
import { readVerdict } from "../../engine/benchmarks/dialogtool/role-play/verdict.js";
import { modelSettings } from "../../engine/roles/openai/settings.js";
import { agentSystemMessage } from "../../engine/scenario/prompts/persona-prompt.js";
import type { Persona } from "../../engine/scenario/model.js";

const PERSONA: Persona = { name: "Captain Nova", mbti: "ENTJ", emotional_traits: "Calm." };

const message = (i: number, sender: Message["sender"], recipient: Message["recipient"], content: string): Message =>
  ({ sandbox_message_index: i, sender, recipient, content, visible_to: [sender, recipient] }) as unknown as Message;

const MESSAGES: Message[] = [
  message(0, "system", "agent", "prompt"),
  message(1, "user", "agent", "Switch my cellular off."),
  message(2, "agent", "user", "Aye.\nCaptain Nova, out."),
];

const verdictJson = (overrides: Record<string, unknown> = {}): string =>
  JSON.stringify({ ...Object.fromEntries(ROLE_PLAY_CRITERIA.map((c, i) => [c.id, { score: i + 2, reason: `r${i}` }])), ...overrides });

/** A judge whose endpoint answers every request with `content` (or `status`), and the requests it got. */
function judgeAnswering(content: string, status = 200): { judge: RolePlayJudge; bodies: unknown[] } {
  const bodies: unknown[] = [];
  const fetch = async (_input: unknown, init?: RequestInit): Promise<Response> => {
    bodies.push(JSON.parse(String(init?.body)));
    const body =
      status === 200
        ? {
            id: "x",
            object: "chat.completion",
            created: 0,
            model: "m",
            choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          }
        : { error: { message: "nope" } };
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  };
  const settings = modelSettings("m", { base_url: "http://judge.test/v1", max_retries: 0 });
  return { judge: new RolePlayJudge({ settings, apiKey: "k-1234", fetch: fetch as typeof globalThis.fetch }), bodies };
}

test("the agent's system message gains the persona paragraph only when the scenario has a persona", () => {
  assert.equal(agentSystemMessage({ system_prompt: "Be careful." }), "Be careful.");
  const text = agentSystemMessage({ system_prompt: "Be careful.", persona: PERSONA });
  assert.ok(text.startsWith("Be careful.\n\n"));
  assert.match(text, /you are Captain Nova/);
  assert.match(text, /MBTI type: ENTJ/);
  assert.match(text, /Emotional traits: Calm\./);
});

test("a well-formed answer gives a score and a reason per criterion and their mean; the rubric is sent verbatim", async () => {
  const { judge, bodies } = judgeAnswering(["```json", verdictJson(), "```"].join("\n"));
  const j = await judge.judge(PERSONA, MESSAGES);
  assert.equal(j.failure, undefined);
  assert.deepEqual(
    j.criteria.map((c) => [c.id, c.score, c.reason]),
    ROLE_PLAY_CRITERIA.map((c, i) => [c.id, i + 2, `r${i}`]),
  );
  assert.equal(j.overall, 3.5);
  assert.equal(j.rubric, ROLE_PLAY_RUBRIC);
  assert.ok(j.rubric.startsWith(RUBRIC_MARKER));
  assert.equal(j.judge, "openai:m");
  assert.equal(j.call?.attempts, 1);
  const sent = bodies[0] as { messages: { role: string; content: string }[] };
  assert.equal(sent.messages[0]!.content, ROLE_PLAY_RUBRIC);
  const read = readJudgeRequest(sent.messages[1]!.content);
  assert.deepEqual(read, { personaName: "Captain Nova", replies: ["Aye. Captain Nova, out."] });
});

test("malformed answers are recorded failures with a one-line reason", async () => {
  const cases: [string, RegExp][] = [
    ["I think it went well.", /not JSON/],
    ["[1, 2]", /not a JSON object/],
    [verdictJson({ identity: undefined }), /has no "identity"/],
    [verdictJson({ identity: { score: 9, reason: "x" } }), /"identity" score is "9", not a whole number from 1 to 5/],
    [verdictJson({ mbti_style: { score: 3 } }), /"mbti_style" has no reason/],
    ["", /no text/],
  ];
  for (const [content, pattern] of cases) {
    const j = await judgeAnswering(content).judge.judge(PERSONA, MESSAGES);
    assert.match(j.failure ?? "", pattern, content);
    assert.doesNotMatch(j.failure ?? "", /\n/);
    assert.deepEqual(j.criteria, []);
    assert.equal(j.overall, null);
  }
  assert.equal(readVerdict(null).ok, false);
});

test("an endpoint that fails, or a conversation without replies, is a failure too, never an exception", async () => {
  const failing = await judgeAnswering("", 500).judge.judge(PERSONA, MESSAGES);
  assert.match(failing.failure ?? "", /^judge openai:m: HTTP 500 from http:\/\/judge\.test\/v1 after 1 attempt: nope$/);
  assert.equal(failing.call?.error !== undefined, true);
  const { judge, bodies } = judgeAnswering(verdictJson());
  const silent = await judge.judge(PERSONA, MESSAGES.slice(0, 2));
  assert.match(silent.failure ?? "", /no reply to the user/);
  assert.equal(bodies.length, 0, "no request is made when there is nothing to judge");
});
