// AccountTools on our fixture's accounts: every tool's success and refusals, with ToolTalk's exact
// exception texts. Generated tokens and codes are CPython's, each tool drawing from its own
// Random(489): python3 -c "import random; r=random.Random(489);
// print(f'{r.randint(0,0xffffffff):08x}-{r.randint(0,0xffff):04x}-{r.randint(0,0xffff):04x}')" etc.
import { test } from "node:test";
import assert from "node:assert/strict";
import { harness, loggedIn, type Harness } from "./harness.js";
import { toolTalkDatabases } from "../../fixtures/tooltalk-data.js";

function account(h: Harness, username: string) {
  const row = h.rows("ACCOUNT").find((r) => r.username === username);
  assert.ok(row, `${username} has an account`);
  return row;
}

test("ChangePassword: the old password must match; the new one is stored", () => {
  const h = loggedIn("mira_okafor");
  assert.equal(h.call("ChangePassword", { old_password: "wrong", new_password: "new1" }).exception, "The old password is incorrect.");
  assert.equal(account(h, "mira_okafor").password, "tidepool-88");
  assert.deepEqual(h.call("ChangePassword", { old_password: "tidepool-88", new_password: "new1" }).response, { status: "success" });
  assert.equal(account(h, "mira_okafor").password, "new1");
});

test("DeleteAccount: refused with a wrong password; otherwise the account goes and the session ends", () => {
  const h = loggedIn("ines_duarte");
  assert.equal(h.call("DeleteAccount", { password: "nope" }).exception, "The password is incorrect.");
  assert.ok(account(h, "ines_duarte"), "a refused call deletes nothing");
  assert.deepEqual(h.call("DeleteAccount", { password: "olive-grove-7" }).response, { status: "success" });
  assert.equal(
    h.rows("ACCOUNT").some((r) => r.username === "ines_duarte"),
    false,
  );
  assert.deepEqual(h.rows("SESSION"), [{ username: null, session_token: null }]);
  // The user's other data stays, as in ToolTalk.
  assert.ok(h.rows("ALARM").some((r) => r.username === "ines_duarte"));
  assert.equal(h.call("GetAccountInformation").exception, "User is not logged in");
});

test("GetAccountInformation returns the logged-in user's public fields", () => {
  const h = loggedIn("tomas_lind");
  assert.deepEqual(h.call("GetAccountInformation"), {
    request: { api_name: "GetAccountInformation", parameters: { session_token: "token-tomas_lind" } },
    response: { user: { username: "tomas_lind", email: "tlind@gahoo.com", phone: "555-877-1200", name: "Tomas Lind" } },
    exception: null,
  });
});

test("LogoutUser clears the account's token and the session", () => {
  const h = loggedIn("ravi_menon");
  assert.equal(account(h, "ravi_menon").session_token, "token-ravi_menon");
  assert.deepEqual(h.call("LogoutUser").response, { status: "success" });
  assert.equal(account(h, "ravi_menon").session_token, null);
  assert.deepEqual(h.rows("SESSION"), [{ username: null, session_token: null }]);
  assert.equal(h.call("LogoutUser").exception, "User is not logged in");
});

test("QueryUser finds by username or by e-mail and needs one of them", () => {
  const h = loggedIn("mira_okafor");
  assert.equal(h.call("QueryUser").exception, "You need to provide at least one of username and email.");
  assert.deepEqual(h.call("QueryUser", { username: "ravi_menon" }).response, {
    users: [{ username: "ravi_menon", email: "ravi.menon@gahoo.com", phone: "555-612-0459", name: "Ravi Menon" }],
  });
  assert.deepEqual(h.call("QueryUser", { username: "nobody" }).response, { users: [] });
  assert.deepEqual(h.call("QueryUser", { email: "kbrenner@somail.com" }).response, {
    users: [{ username: "kai_brenner", email: "kbrenner@somail.com", phone: "555-903-2216", name: "Kai Brenner" }],
  });
  // A list is no dict key: Python's TypeError text is what the model sees.
  assert.equal(h.call("QueryUser", { username: ["a"] }).exception, "unhashable type: 'list'");
});

test("RegisterUser creates the account, logs it in and returns CPython's first token", () => {
  const h = harness();
  const record = h.call("RegisterUser", { username: "june_park", password: "pw", email: "june.park@fmail.com" });
  assert.deepEqual(record.response, {
    session_token: "e149636f-d9ca-0792",
    user: { username: "june_park", email: "june.park@fmail.com", phone: null, name: null },
  });
  assert.deepEqual(account(h, "june_park"), {
    username: "june_park",
    email: "june.park@fmail.com",
    phone: null,
    name: null,
    password: "pw",
    session_token: "e149636f-d9ca-0792",
    verification_code: null,
  });
  assert.deepEqual(h.rows("SESSION"), [{ username: "june_park", session_token: "e149636f-d9ca-0792" }]);
  assert.deepEqual(h.call("GetAccountInformation").response, {
    user: { username: "june_park", email: "june.park@fmail.com", phone: null, name: null },
  });
});

test("RegisterUser refuses a taken username, a malformed e-mail or phone", () => {
  const h = harness();
  const base = { username: "newbie", password: "pw", email: "new@example.com" };
  assert.equal(h.call("RegisterUser", { ...base, username: "mira_okafor" }).exception, "The username already exists.");
  assert.equal(h.call("RegisterUser", { ...base, email: "not an address" }).exception, "The email format is invalid.");
  assert.equal(h.call("RegisterUser", { ...base, phone: "5551234567" }).exception, "The phone number format is invalid.");
  assert.equal(h.call("RegisterUser", { ...base, email: 42 }).exception, "expected string or bytes-like object, got 'int'");
  assert.equal(
    h.rows("ACCOUNT").some((r) => r.username === "newbie"),
    false,
  );
  assert.equal(h.call("RegisterUser", { ...base, phone: "555-123-4567", name: "New Bie" }).exception, null);
});

test("SendVerificationCode stores CPython's first six-digit code; ResetPassword accepts only that code", () => {
  const h = harness();
  assert.equal(h.call("SendVerificationCode", { username: "ghost", email: "x@y.z" }).exception, "The username does not exist.");
  assert.equal(h.call("SendVerificationCode", { username: "tomas_lind", email: "wrong@gahoo.com" }).exception, "The email is incorrect.");
  // Before a code was sent, not even the code to come is accepted.
  assert.equal(
    h.call("ResetPassword", { username: "tomas_lind", verification_code: "984520", new_password: "x" }).exception,
    "The verification code is incorrect.",
  );
  assert.deepEqual(h.call("SendVerificationCode", { username: "tomas_lind", email: "tlind@gahoo.com" }).response, {
    status: "success",
  });
  assert.equal(account(h, "tomas_lind").verification_code, "984520");
  assert.equal(
    h.call("ResetPassword", { username: "ghost", verification_code: "984520", new_password: "x" }).exception,
    "The username does not exist.",
  );
  assert.equal(
    h.call("ResetPassword", { username: "tomas_lind", verification_code: "000000", new_password: "x" }).exception,
    "The verification code is incorrect.",
  );
  assert.deepEqual(h.call("ResetPassword", { username: "tomas_lind", verification_code: "984520", new_password: "fresh" }).response, {
    status: "success",
  });
  assert.equal(account(h, "tomas_lind").password, "fresh");
});

test("a conversation's verification_code is in place before the first call", () => {
  const h = harness({ user: { username: "tomas_lind", verification_code: "123456" } });
  assert.equal(h.call("ResetPassword", { username: "tomas_lind", verification_code: "123456", new_password: "z" }).exception, null);
  assert.equal(account(h, "tomas_lind").password, "z");
});

test("UpdateAccountInformation checks the password, needs an e-mail or phone, and keeps changes made before a refusal", () => {
  const h = loggedIn("tomas_lind");
  assert.equal(h.call("UpdateAccountInformation", { password: "bad", new_email: "a@b.c" }).exception, "The password is incorrect.");
  assert.equal(
    h.call("UpdateAccountInformation", { password: "granite&fern", new_name: "Tom" }).exception,
    "You need to provide at least one of new_email and new_phone_number.",
  );
  assert.equal(h.call("UpdateAccountInformation", { password: "granite&fern", new_email: "broken" }).exception, "The email is invalid.");
  assert.equal(account(h, "tomas_lind").name, "Tomas Lind");
  const partial = h.call("UpdateAccountInformation", { password: "granite&fern", new_email: "tomas@new.com", new_phone_number: "12345" });
  assert.equal(partial.exception, "The phone number is invalid.");
  assert.equal(account(h, "tomas_lind").email, "tomas@new.com");
  assert.equal(account(h, "tomas_lind").phone, "555-877-1200");
  // ToolTalk's output spec says `success`; its code answers `status`.
  assert.deepEqual(
    h.call("UpdateAccountInformation", { password: "granite&fern", new_phone_number: "111-222-3333", new_name: "T. Lind" }).response,
    {
      status: "success",
    },
  );
  assert.equal(account(h, "tomas_lind").phone, "111-222-3333");
  assert.equal(account(h, "tomas_lind").name, "T. Lind");
});

test("UserLogin: unknown user, wrong password, already logged in, then a token", () => {
  const h = harness();
  assert.equal(h.call("UserLogin", { username: "ghost", password: "x" }).exception, "The username does not exist.");
  assert.equal(h.call("UserLogin", { username: "ravi_menon", password: "x" }).exception, "The password is incorrect.");
  assert.deepEqual(h.call("UserLogin", { username: "ravi_menon", password: "monsoon#42" }).response, {
    session_token: "e149636f-d9ca-0792",
  });
  assert.equal(account(h, "ravi_menon").session_token, "e149636f-d9ca-0792");
  assert.deepEqual(h.rows("SESSION"), [{ username: "ravi_menon", session_token: "e149636f-d9ca-0792" }]);
});

test("UserLogin refuses an account whose token is still set even when no session is open", () => {
  const base = toolTalkDatabases();
  const stale = { ...base, ACCOUNT: (base.ACCOUNT ?? []).map((r) => (r.username === "kai_brenner" ? { ...r, session_token: "old" } : r)) };
  const h = harness({ base: stale });
  assert.deepEqual(h.rows("SESSION"), [{ username: null, session_token: null }]);
  assert.equal(h.call("UserLogin", { username: "kai_brenner", password: "stillwater9" }).exception, "The user is already logged in.");
  assert.equal(account(h, "kai_brenner").session_token, "old");
});
