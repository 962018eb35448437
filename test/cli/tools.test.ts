import { before, test } from "node:test";
import assert from "node:assert/strict";
import { requireBuild, lines, runCli } from "./harness.js";

before(requireBuild);

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
  assert.match(out[0]!, /^TOOL +APP +DOMAIN +KIND +TRANSACTIONAL/);
  assert.match(out.find((l) => l.startsWith("set_wifi_status "))!, /Setting +action +yes +on$/);
  assert.match(out.find((l) => l.startsWith("get_wifi_status "))!, /Setting +read$/);
});

test("each pack marks its transactional tools: ToolSandbox's that add, change, remove or send; ToolTalk's destructive ones", () => {
  const flagged = (pack: string): string[] => {
    const r = runCli(["tools", "--json", "--pack", pack]);
    assert.equal(r.status, 0, r.stderr);
    return (JSON.parse(r.stdout) as { name: string; transactional: boolean }[]).filter((t) => t.transactional).map((t) => t.name);
  };
  const sandbox = flagged("toolsandbox");
  for (const name of ["add_contact", "remove_reminder", "send_message_with_phone_number", "set_wifi_status"])
    assert.ok(sandbox.includes(name), name);
  for (const name of ["search_contacts", "get_wifi_status", "get_current_timestamp"]) assert.ok(!sandbox.includes(name), name);
  const tooltalk = flagged("tooltalk");
  for (const name of ["DeleteAccount", "DeleteEvent", "SendEmail", "ChangePassword"]) assert.ok(tooltalk.includes(name), name);
  for (const name of ["QueryCalendar", "UserLogin", "AddAlarm"]) assert.ok(!tooltalk.includes(name), name);
});
