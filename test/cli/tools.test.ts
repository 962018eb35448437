import { before, test } from "node:test";
import assert from "node:assert/strict";
import { buildCli, lines, runCli } from "./harness.js";

before(buildCli);

test("tools --json lists all 34 tools of the catalog", () => {
  const r = runCli(["tools", "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const entries = JSON.parse(r.stdout) as { name: string }[];
  assert.equal(entries.length, 34);
  const names = entries.map((e) => e.name);
  assert.equal(new Set(names).size, 34);
  for (const name of ["add_contact", "end_conversation", "search_weather_around_lat_lon", "unit_conversion"])
    assert.ok(names.includes(name), name);
});

test("tools prints one table row per tool", () => {
  const r = runCli(["tools"]);
  assert.equal(r.status, 0, r.stderr);
  const out = lines(r.stdout);
  assert.match(out[0]!, /^TOOL +APP +DOMAIN +KIND/);
  const rows = out.filter((l) => /^[a-z_]+ {2,}/.test(l));
  assert.equal(rows.length, 34);
  assert.match(out.find((l) => l.startsWith("set_wifi_status "))!, /Setting +action +on$/);
});
