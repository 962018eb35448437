import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { determinismEvents } from "./determinism-run.js";

test("the same scenario and seed give identical events", async () => {
  const first = JSON.stringify(await determinismEvents(11));
  assert.equal(JSON.stringify(await determinismEvents(11)), first);
  assert.notEqual(JSON.stringify(await determinismEvents(12)), first, "the seed does matter");
  assert.match(first, /"reason":"end_conversation"/);
});

test("the machine's timezone does not change a run", async () => {
  const expected = JSON.stringify(await determinismEvents(11));
  for (const tz of ["Asia/Kolkata", "Pacific/Chatham", "UTC"]) {
    const child = spawnSync(process.execPath, ["--import", "tsx", join(__dirname, "determinism-run.ts"), "11"], {
      env: { ...process.env, TZ: tz },
      encoding: "utf8",
    });
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stdout, expected, `TZ=${tz}`);
  }
});
