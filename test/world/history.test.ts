import { test } from "node:test";
import assert from "node:assert/strict";
import { WorldHistory } from "../../engine/world/world-history.js";
import { WorldTransaction } from "../../engine/world/transaction.js";
import { applyChanges, invertChanges } from "../../engine/world/changes.js";
import { defaultWorld } from "../../engine/packs/toolsandbox/default-world.js";
import { TOOLSANDBOX_SCHEMAS } from "../../engine/packs/toolsandbox/table-schemas.js";

const initial = defaultWorld(1_700_000_000);

test("reading index i returns the latest snapshot at or before i", () => {
  const history = new WorldHistory(TOOLSANDBOX_SCHEMAS, initial);
  const tx = new WorldTransaction(history.latest().tables, TOOLSANDBOX_SCHEMAS);
  tx.updateAt("SETTING", 0, { wifi: false });
  history.commit(5, tx.tables(), tx.changes());
  assert.equal(history.at(4).SETTING![0]!.wifi, true);
  assert.equal(history.at(5).SETTING![0]!.wifi, false);
  assert.equal(history.at(99).SETTING![0]!.wifi, false);
  assert.equal(history.all().length, 2);
});

test("changes replay forwards and invert backwards to the same tables", () => {
  const tx = new WorldTransaction(initial, TOOLSANDBOX_SCHEMAS);
  tx.insert("CONTACT", { person_id: "p", name: "New Person", phone_number: "+15550100" });
  tx.updateAt("CONTACT", 1, { relationship: "enemy" }, true);
  tx.deleteAt("REMINDER", 0);
  const forward = applyChanges(initial, tx.changes());
  assert.deepEqual(forward, tx.tables());
  // The modified row moved to the end, as upstream's modify_contact does.
  assert.equal(forward.CONTACT!.at(-1)!.relationship, "enemy");
  // Inserted rows get every column of the schema, missing ones null.
  assert.equal(forward.CONTACT!.find((r) => r.person_id === "p")!.is_self, null);
  assert.deepEqual(applyChanges(forward, invertChanges(tx.changes())), initial);
});

test("a fork starts from the current state and does not affect its parent", () => {
  const tx = new WorldTransaction(initial, TOOLSANDBOX_SCHEMAS);
  tx.updateAt("SETTING", 0, { cellular: false });
  const fork = tx.fork();
  fork.updateAt("SETTING", 0, { wifi: false });
  assert.equal(tx.rows("SETTING")[0]!.wifi, true);
  assert.equal(fork.rows("SETTING")[0]!.cellular, false);
  assert.equal(fork.changes().length, 1);
});
