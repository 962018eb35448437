// AccountTools: every tool's success and refusals, with ToolTalk's exact exception texts. Generated
// tokens and codes are CPython's: python3 -c "import random; r=random.Random(489);
// print(f'{r.randint(0,0xffffffff):08x}-{r.randint(0,0xffff):04x}-{r.randint(0,0xffff):04x}')" etc.
import { test } from "node:test";
import assert from "node:assert/strict";
import { harness, loggedIn, type Harness } from "./harness.js";
import { toolTalkDatabases } from "../../published-data.js";

function account(h: Harness, username: string) {
  const row = h.rows("ACCOUNT").find((r) => r.username === username);
  assert.ok(row, `${username} has an account`);
  return row;
}

test("ChangePassword: the old password must match; the new one is stored", () => {
  const h = loggedIn("justinkool");
  assert.equal(h.call("ChangePassword", { old_password: "wrong", new_password: "new1" }).exception, "The old password is incorrect.");
  assert.equal(account(h, "justinkool").password, "justforkicks123");
  assert.deepEqual(h.call("ChangePassword", { old_password: "justforkicks123", new_password: "new1" }).response, { status: "success" });
  assert.equal(account(h, "justinkool").password, "new1");
});

test("DeleteAccount: refused with a wrong password; otherwise the account goes and the session ends", () => {
  const h = loggedIn("mstein");
  assert.equal(h.call("DeleteAccount", { password: "nope" }).exception, "The password is incorrect.");
  assert.deepEqual(h.call("DeleteAccount", { password: "weiChe0oo" }).response, { status: "success" });
  assert.equal(
    h.rows("ACCOUNT").some((r) => r.username === "mstein"),
    false,
  );
  assert.deepEqual(h.rows("SESSION"), [{ username: null, session_token: null }]);
  // The user's other data stays, as in ToolTalk.
  assert.ok(h.rows("ALARM").some((r) => r.username === "mstein"));
  assert.equal(h.call("GetAccountInformation").exception, "User is not logged in");
});

test("GetAccountInformation returns the logged-in user's public fields", () => {
  const h = loggedIn("decture");
  assert.deepEqual(h.call("GetAccountInformation"), {
    request: { api_name: "GetAccountInformation", parameters: { session_token: "token-decture" } },
    response: { user: { username: "decture", email: "VirginiaJGraham@gahoo.com", phone: "703-607-3363", name: "Virginia J. Graham" } },
    exception: null,
  });
});

test("LogoutUser clears the account's token and the session", () => {
  const h = loggedIn("lifeng");
  assert.deepEqual(h.call("LogoutUser").response, { status: "success" });
  assert.equal(account(h, "lifeng").session_token, null);
  assert.deepEqual(h.rows("SESSION"), [{ username: null, session_token: null }]);
  assert.equal(h.call("LogoutUser").exception, "User is not logged in");
});

test("QueryUser finds by username or by e-mail and needs one of them", () => {
  const h = loggedIn("justinkool");
  assert.equal(h.call("QueryUser").exception, "You need to provide at least one of username and email.");
  assert.deepEqual(h.call("QueryUser", { username: "salcano" }).response, {
    users: [{ username: "salcano", email: "hugosalcano@somail.com", phone: "402-581-7997", name: "Hugo Saldana Cano" }],
  });
  assert.deepEqual(h.call("QueryUser", { username: "nobody" }).response, { users: [] });
  assert.deepEqual(h.call("QueryUser", { email: "lifeng@gahoo.com" }).response, {
    users: [{ username: "lifeng", email: "lifeng@gahoo.com", phone: "512-322-9516", name: "Li Feng" }],
  });
  // A list is no dict key: Python's TypeError text is what the model sees.
  assert.equal(h.call("QueryUser", { username: ["a"] }).exception, "unhashable type: 'list'");
});

test("RegisterUser creates the account, logs it in and returns CPython's first token", () => {
  const h = harness();
  const record = h.call("RegisterUser", { username: "kongster", password: "pw", email: "kong.zi@gahoo.com" });
  assert.deepEqual(record.response, {
    session_token: "e149636f-d9ca-0792",
    user: { username: "kongster", email: "kong.zi@gahoo.com", phone: null, name: null },
  });
  assert.deepEqual(account(h, "kongster"), {
    username: "kongster",
    email: "kong.zi@gahoo.com",
    phone: null,
    name: null,
    password: "pw",
    session_token: "e149636f-d9ca-0792",
    verification_code: null,
  });
  assert.deepEqual(h.rows("SESSION"), [{ username: "kongster", session_token: "e149636f-d9ca-0792" }]);
  assert.deepEqual(h.call("GetAccountInformation").response, {
    user: { username: "kongster", email: "kong.zi@gahoo.com", phone: null, name: null },
  });
});

test("RegisterUser refuses a taken username, a malformed e-mail or phone", () => {
  const h = harness();
  const base = { username: "newbie", password: "pw", email: "new@example.com" };
  assert.equal(h.call("RegisterUser", { ...base, username: "justinkool" }).exception, "The username already exists.");
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
  assert.equal(h.call("SendVerificationCode", { username: "decture", email: "wrong@gahoo.com" }).exception, "The email is incorrect.");
  assert.equal(
    h.call("ResetPassword", { username: "decture", verification_code: "984520", new_password: "x" }).exception,
    "The verification code is incorrect.",
  );
  assert.deepEqual(h.call("SendVerificationCode", { username: "decture", email: "VirginiaJGraham@gahoo.com" }).response, {
    status: "success",
  });
  assert.equal(account(h, "decture").verification_code, "984520");
  assert.equal(
    h.call("ResetPassword", { username: "ghost", verification_code: "984520", new_password: "x" }).exception,
    "The username does not exist.",
  );
  assert.equal(
    h.call("ResetPassword", { username: "decture", verification_code: "000000", new_password: "x" }).exception,
    "The verification code is incorrect.",
  );
  assert.deepEqual(h.call("ResetPassword", { username: "decture", verification_code: "984520", new_password: "fresh" }).response, {
    status: "success",
  });
  assert.equal(account(h, "decture").password, "fresh");
});

test("a conversation's verification_code is in place before the first call", () => {
  const h = harness({ user: { username: "decture", verification_code: "123456" } });
  assert.equal(h.call("ResetPassword", { username: "decture", verification_code: "123456", new_password: "z" }).exception, null);
});

test("UpdateAccountInformation checks the password, needs an e-mail or phone, and keeps changes made before a refusal", () => {
  const h = loggedIn("salcano");
  assert.equal(h.call("UpdateAccountInformation", { password: "bad", new_email: "a@b.c" }).exception, "The password is incorrect.");
  assert.equal(
    h.call("UpdateAccountInformation", { password: "aeghah9Ei", new_name: "Hugo" }).exception,
    "You need to provide at least one of new_email and new_phone_number.",
  );
  assert.equal(h.call("UpdateAccountInformation", { password: "aeghah9Ei", new_email: "broken" }).exception, "The email is invalid.");
  const partial = h.call("UpdateAccountInformation", { password: "aeghah9Ei", new_email: "hugo@new.com", new_phone_number: "12345" });
  assert.equal(partial.exception, "The phone number is invalid.");
  assert.equal(account(h, "salcano").email, "hugo@new.com");
  assert.equal(account(h, "salcano").phone, "402-581-7997");
  // ToolTalk's output spec says `success`; its code answers `status`.
  assert.deepEqual(
    h.call("UpdateAccountInformation", { password: "aeghah9Ei", new_phone_number: "111-222-3333", new_name: "H. S. Cano" }).response,
    {
      status: "success",
    },
  );
  assert.equal(account(h, "salcano").phone, "111-222-3333");
  assert.equal(account(h, "salcano").name, "H. S. Cano");
});

test("UserLogin: unknown user, wrong password, already logged in, then a token", () => {
  const h = harness();
  assert.equal(h.call("UserLogin", { username: "ghost", password: "x" }).exception, "The username does not exist.");
  assert.equal(h.call("UserLogin", { username: "olivedo", password: "x" }).exception, "The password is incorrect.");
  assert.deepEqual(h.call("UserLogin", { username: "olivedo", password: "SaeH9Ligh" }).response, { session_token: "e149636f-d9ca-0792" });
  assert.equal(account(h, "olivedo").session_token, "e149636f-d9ca-0792");
  assert.deepEqual(h.rows("SESSION"), [{ username: "olivedo", session_token: "e149636f-d9ca-0792" }]);
});

test("UserLogin refuses an account whose token is still set even when no session is open", () => {
  const base = toolTalkDatabases();
  const stale = { ...base, ACCOUNT: (base.ACCOUNT ?? []).map((r) => (r.username === "geoff" ? { ...r, session_token: "old" } : r)) };
  const h = harness({ base: stale });
  assert.equal(h.call("UserLogin", { username: "geoff", password: "P@ssw0rd123" }).exception, "The user is already logged in.");
});
