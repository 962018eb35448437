// The Neovim 0.7-0.9 setup of docs/editors.md, run as written (the command pointed at dist/cli.js) in the
// real Neovim from Debian, headless: the diagnostics of a planted mistake with its did-you-mean,
// completion of milestone ids in `after:`, and a rename of a milestone id that follows its use.
// Neovim is set up by the test runner (scripts/test-setup, step "neovim"); without it the test
// fails with one line saying how to get it.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requireBuild } from "../cli/harness.js";

const NVIM = process.env.TOOLSANDBOX_NVIM ?? "/usr/bin/nvim";
const CLI = join(process.cwd(), "dist", "cli.js");

/** The Lua block for Neovim 0.7 to 0.9 in docs/editors.md, with the command this checkout builds. */
function documentedSetup(): string {
  const doc = readFileSync(join(process.cwd(), "docs", "editors.md"), "utf8");
  const section = doc.slice(doc.indexOf("**Neovim 0.7 to 0.9**"));
  const block = /```lua\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, "docs/editors.md: no Lua block after **Neovim 0.7 to 0.9**");
  const command = `{ ${JSON.stringify(process.execPath)}, ${JSON.stringify(CLI)}, "lsp", "--stdio" }`;
  assert.ok(
    block.includes('{ "toolsandbox", "lsp", "--stdio" }'),
    "docs/editors.md: the Neovim 0.7 block starts `toolsandbox lsp --stdio`",
  );
  return block.replace('{ "toolsandbox", "lsp", "--stdio" }', command);
}

const SCENARIO = `name: neovim_check
user:
  goal: Turn off wifi.
  opening: Please turn off wifi.
milestones:
  - id: wifi_off
    constraints:
      - kind: snapshoot
        table: SETTING
        target: [{ wifi: false }]
  - id: said_done
    after: [wifi_off]
    constraints:
      - { kind: snapshot, table: SANDBOX, target: [{ sender: agent, recipient: user }] }
reference:
  - calls:
      - tool: set_wifi_status
        arguments: { on: false }
  - agent: Wifi is off.
  - end_conversation: true
`;

// Runs in Neovim after the file is open: waits for the diagnostics, asks for completion and a
// rename through the attached client, applies the rename and writes what it saw as JSON.
const DRIVER = `
local out = { diagnostics = {}, completion = {}, renamed = {} }
local ok = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 100)
out.attached = #vim.lsp.buf_get_clients(0)
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out.diagnostics, { line = d.lnum, message = d.message })
end
local uri = vim.uri_from_bufnr(0)
local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
local after_line, id_line
for i, l in ipairs(lines) do
  if l:find("after: %[wifi_off%]") then after_line = i - 1 end
  if l:find("id: wifi_off") then id_line = i - 1 end
end
local completion = vim.lsp.buf_request_sync(0, "textDocument/completion", {
  textDocument = { uri = uri }, position = { line = after_line, character = #"    after: [" },
}, 30000)
for _, answer in pairs(completion or {}) do
  local items = answer.result and (answer.result.items or answer.result) or {}
  for _, item in ipairs(items) do table.insert(out.completion, item.label) end
end
local rename = vim.lsp.buf_request_sync(0, "textDocument/rename", {
  textDocument = { uri = uri }, position = { line = id_line, character = #"  - id: " }, newName = "wifi_disabled",
}, 30000)
for _, answer in pairs(rename or {}) do
  if answer.result then vim.lsp.util.apply_workspace_edit(answer.result, "utf-16") end
end
out.renamed = vim.api.nvim_buf_get_lines(0, 0, -1, false)
out.waited = ok
local file = io.open(vim.env.TOOLSANDBOX_NVIM_OUT, "w")
file:write(vim.fn.json_encode(out))
file:close()
vim.cmd("qa!")
`;

interface Seen {
  attached: number;
  diagnostics: { line: number; message: string }[];
  completion: string[];
  renamed: string[];
}

let dir: string;
let seen: Seen;

before(() => {
  assert.ok(
    existsSync(NVIM),
    `Neovim not found at ${NVIM}: run \`node scripts/test-setup/index.mjs neovim\` (Debian: apt-get install neovim)`,
  );
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), "toolsandbox-neovim-"));
  writeFileSync(join(dir, "init.lua"), documentedSetup());
  writeFileSync(join(dir, "driver.lua"), DRIVER);
  writeFileSync(join(dir, "wifi.scenario.yaml"), SCENARIO);
  const out = join(dir, "seen.json");
  const result = spawnSync(
    NVIM,
    ["--headless", "-u", join(dir, "init.lua"), "-i", "NONE", "wifi.scenario.yaml", "-c", `luafile ${join(dir, "driver.lua")}`],
    {
      cwd: dir,
      env: { ...process.env, TOOLSANDBOX_NVIM_OUT: out, XDG_STATE_HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
      encoding: "utf8",
      timeout: 120_000,
    },
  );
  assert.ok(existsSync(out), `Neovim wrote nothing (exit ${result.status ?? result.signal}): ${result.stderr || result.stdout}`);
  seen = JSON.parse(readFileSync(out, "utf8")) as Seen;
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("Neovim attaches the server and shows the planted mistake with its did-you-mean", () => {
  assert.equal(seen.attached, 1);
  const kind = seen.diagnostics.find((d) => d.line === 7);
  assert.ok(kind, JSON.stringify(seen.diagnostics));
  assert.match(kind.message, /Did you mean "snapshot"\?/);
});

test("Neovim gets the milestone ids as completion in `after:`", () => {
  assert.ok(seen.completion.includes("wifi_off"), seen.completion.join(", "));
});

test("a rename in Neovim changes the id and its use in `after:`", () => {
  assert.ok(seen.renamed.includes("  - id: wifi_disabled"), seen.renamed.join("\n"));
  assert.ok(seen.renamed.includes("    after: [wifi_disabled]"), seen.renamed.join("\n"));
  assert.ok(!seen.renamed.some((l) => l.includes("wifi_off")), seen.renamed.join("\n"));
});
