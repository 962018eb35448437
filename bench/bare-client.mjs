// The floor under bench:models' overhead: a bare Node process that makes the same model calls on
// the same schedule, with the same openai client, and does nothing else (no engine, no scenario,
// no files). Jobs are taken in order by the first free of CONCURRENCY slots; each makes its calls
// one after another. What this process takes above the ideal schedule (Node's start, loading the
// client, the HTTP round trips) no implementation of `run` in Node can go below.
//
//   node bench/bare-client.mjs BASE_URL CONCURRENCY CALLS,CALLS,...
import OpenAI from "openai";

const [baseURL, concurrencyText, callsText] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const jobs = (callsText ?? "").split(",").map(Number);
const client = new OpenAI({ baseURL, apiKey: "mock-key" });

let next = 0;
async function slot() {
  while (next < jobs.length) {
    const calls = jobs[next++] ?? 0;
    for (let i = 0; i < calls; i++) {
      await client.chat.completions.create({ model: "mock", messages: [{ role: "user", content: "hi" }] });
    }
  }
}
await Promise.all(Array.from({ length: concurrency }, slot));
