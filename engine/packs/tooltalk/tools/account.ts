// ToolTalk's AccountTools suite: logging in and out, registering, password changes and resets,
// account details. The session token of tools that need a login is injected by the runtime.
import type { JsonObject } from "../../../base/json.js";
import type { PythonRandom } from "../../../python/random.js";
import type { ToolParameter } from "../../../tools/types.js";
import { AUTH_ERRORS, apiException, arg, hex, stringParam, type ToolTalkApi, suiteTool } from "./api.js";
import { cellJson, toCell } from "./collections.js";
import { pyEquals, pyReMatches } from "./python-semantics.js";
import { accountByToken, accountByUsername, updateAccount, type AccountRef } from "./login-session.js";
import { ACCOUNT } from "../tables.js";

const SUITE = { module: "AccountTools", domain: "Account" } as const;

// ToolTalk's format checks (re.match, so `$` also accepts one trailing newline; \w and \d are Unicode).
export const EMAIL_PATTERN = /^[\p{L}\p{N}_\-.]+@[\p{L}\p{N}_\-.]+\n?$/u;
const PHONE_PATTERN = /^\p{Nd}{3}-\p{Nd}{3}-\p{Nd}{4}\n?$/u;

const STATUS_SCHEMA: JsonObject = { type: "object", properties: { status: { type: "string" } } };
const USER_SCHEMA: JsonObject = {
  type: "object",
  properties: { username: { type: "string" }, email: { type: "string" }, phone: { type: "string" }, name: { type: "string" } },
};
const SUCCESS = { status: "success" } as const;
const STATUS_RETURNS = 'status: "success" when it worked.';

function tool(
  name: string,
  summary: string,
  parameters: readonly ToolParameter[],
  returns: { readonly text: string; readonly schema: JsonObject },
  action: boolean,
  errors: readonly string[],
): ToolTalkApi["definition"] {
  return suiteTool(SUITE, { name, summary, parameters, returns, action, errors });
}

function publicInfo(row: AccountRef["row"]): JsonObject {
  return { username: cellJson(row.username), email: cellJson(row.email), phone: cellJson(row.phone), name: cellJson(row.name) };
}

/** `f"{randint(0, 0xffffffff):08x}-{randint(0, 0xffff):04x}-{randint(0, 0xffff):04x}"`. */
function sessionToken(random: PythonRandom): string {
  return `${hex(random.randint(0, 0xffffffff), 8)}-${hex(random.randint(0, 0xffff), 4)}-${hex(random.randint(0, 0xffff), 4)}`;
}

/** `f"{randint(0, 999999):06d}"`. */
function verificationCode(random: PythonRandom): string {
  return String(random.randint(0, 999999)).padStart(6, "0");
}

const USERNAME = stringParam("username", "The account's username.", true);
const PASSWORD = stringParam("password", "The account's current password.", true);
const NEW_PASSWORD = stringParam("new_password", "The password to set.", true);

const changePassword: ToolTalkApi = {
  definition: tool(
    "ChangePassword",
    "Change the logged-in user's password; the current one must be given.",
    [stringParam("old_password", "The password in use now.", true), NEW_PASSWORD],
    { text: STATUS_RETURNS, schema: STATUS_SCHEMA },
    true,
    [...AUTH_ERRORS, "The old password is incorrect."],
  ),
  requiresAuth: true,
  call(args, { world }) {
    const user = accountByToken(world, arg(args, "session_token"));
    if (!pyEquals(user.row.password, arg(args, "old_password"))) throw apiException("The old password is incorrect.");
    updateAccount(world, user, { password: toCell(arg(args, "new_password")) });
    return { ...SUCCESS };
  },
};

const deleteAccount: ToolTalkApi = {
  definition: tool(
    "DeleteAccount",
    "Delete the logged-in user's account for good, which also logs them out. The password confirms it.",
    [PASSWORD],
    {
      text: STATUS_RETURNS,
      schema: STATUS_SCHEMA,
    },
    true,
    [...AUTH_ERRORS, "The password is incorrect."],
  ),
  requiresAuth: true,
  call(args, { world }) {
    const user = accountByToken(world, arg(args, "session_token"));
    if (!pyEquals(user.row.password, arg(args, "password"))) throw apiException("The password is incorrect.");
    // ToolTalk deletes `database[username]`: the entry under the account's own username.
    const entry = accountByUsername(world, user.row.username ?? null);
    if (entry) world.deleteAt(ACCOUNT.name, entry.position);
    return { ...SUCCESS };
  },
};

const getAccountInformation: ToolTalkApi = {
  definition: tool(
    "GetAccountInformation",
    "Look up the logged-in user's own account: username, e-mail, phone and name.",
    [],
    {
      text: "user: the account's username, email, phone and name.",
      schema: { type: "object", properties: { user: USER_SCHEMA } },
    },
    false,
    [...AUTH_ERRORS],
  ),
  requiresAuth: true,
  call(args, { world }) {
    return { user: publicInfo(accountByToken(world, arg(args, "session_token")).row) };
  },
};

const logoutUser: ToolTalkApi = {
  definition: tool("LogoutUser", "Log the current user out.", [], { text: STATUS_RETURNS, schema: STATUS_SCHEMA }, true, [...AUTH_ERRORS]),
  requiresAuth: true,
  call(args, { world }) {
    updateAccount(world, accountByToken(world, arg(args, "session_token")), { session_token: null });
    return { ...SUCCESS };
  },
};

const queryUser: ToolTalkApi = {
  definition: tool(
    "QueryUser",
    "Find other users by username or by e-mail address (give at least one of the two).",
    [
      stringParam("username", "Username to look up. Needed when no email is given.", false),
      stringParam("email", "E-mail address to look up. Needed when no username is given; several users may share one.", false),
    ],
    {
      text: "users: the matching accounts (username, email, phone, name); empty when none matches.",
      schema: { type: "object", properties: { users: { type: "array", items: USER_SCHEMA } } },
    },
    false,
    [...AUTH_ERRORS, "You need to provide at least one of username and email."],
  ),
  requiresAuth: true,
  call(args, { world }) {
    accountByToken(world, arg(args, "session_token"));
    const username = arg(args, "username");
    const email = arg(args, "email");
    if (username === null && email === null) throw apiException("You need to provide at least one of username and email.");
    if (username === null)
      return {
        users: world
          .rows(ACCOUNT.name)
          .filter((r) => pyEquals(r.email, email))
          .map(publicInfo),
      };
    const found = accountByUsername(world, username);
    return { users: found ? [publicInfo(found.row)] : [] };
  },
};

const registerUser: ToolTalkApi = {
  definition: tool(
    "RegisterUser",
    "Create an account and log into it straight away.",
    [
      stringParam("username", "The username to register.", true),
      stringParam("password", "The password for the new account.", true),
      stringParam("email", "The new account's e-mail address.", true),
      stringParam("name", "The person's full name.", false),
      stringParam("phone", "Phone number written xxx-xxx-xxxx.", false),
    ],
    {
      text: "session_token: the token of the new login; user: the new account's username, email, phone and name.",
      schema: { type: "object", properties: { session_token: { type: "string" }, user: USER_SCHEMA } },
    },
    true,
    [
      "Only one user can be logged in at a time. Current user is ….",
      "The username already exists.",
      "The email format is invalid.",
      "The phone number format is invalid.",
    ],
  ),
  requiresAuth: false,
  newId: sessionToken,
  call(args, { world, random }) {
    const username = arg(args, "username");
    const email = arg(args, "email");
    const phone = arg(args, "phone");
    const name = arg(args, "name");
    if (accountByUsername(world, username)) throw apiException("The username already exists.");
    if (!pyReMatches(EMAIL_PATTERN, email)) throw apiException("The email format is invalid.");
    if (phone !== null && !pyReMatches(PHONE_PATTERN, phone)) throw apiException("The phone number format is invalid.");
    const token = sessionToken(random);
    world.insert(ACCOUNT.name, {
      username: toCell(username),
      email: toCell(email),
      phone: toCell(phone),
      name: toCell(name),
      password: toCell(arg(args, "password")),
      session_token: token,
      verification_code: null,
    });
    return { session_token: token, user: { username, email, phone, name } };
  },
};

const resetPassword: ToolTalkApi = {
  definition: tool(
    "ResetPassword",
    "Set a new password with the verification code SendVerificationCode sent; no login needed.",
    [USERNAME, stringParam("verification_code", "The six-digit code the user received.", true), NEW_PASSWORD],
    { text: STATUS_RETURNS, schema: STATUS_SCHEMA },
    true,
    ["The username does not exist.", "The verification code is incorrect."],
  ),
  requiresAuth: false,
  call(args, { world }) {
    const user = accountByUsername(world, arg(args, "username"));
    if (!user) throw apiException("The username does not exist.");
    // An account that was never sent a code has none (null here, no key in ToolTalk).
    const code = user.row.verification_code ?? null;
    if (code === null || !pyEquals(code, arg(args, "verification_code"))) throw apiException("The verification code is incorrect.");
    updateAccount(world, user, { password: toCell(arg(args, "new_password")) });
    return { ...SUCCESS };
  },
};

const sendVerificationCode: ToolTalkApi = {
  definition: tool(
    "SendVerificationCode",
    "Start a password reset: a six-digit code goes to the account's e-mail address, which must be given.",
    [USERNAME, stringParam("email", "The e-mail address of the account.", true)],
    { text: STATUS_RETURNS, schema: STATUS_SCHEMA },
    true,
    ["The username does not exist.", "The email is incorrect."],
  ),
  requiresAuth: false,
  newId: verificationCode,
  call(args, { world, random }) {
    const user = accountByUsername(world, arg(args, "username"));
    if (!user) throw apiException("The username does not exist.");
    if (!pyEquals(user.row.email, arg(args, "email"))) throw apiException("The email is incorrect.");
    updateAccount(world, user, { verification_code: verificationCode(random) });
    return { ...SUCCESS };
  },
};

const updateAccountInformation: ToolTalkApi = {
  definition: tool(
    "UpdateAccountInformation",
    "Change the logged-in user's e-mail address, phone number or name. The password confirms it; a new e-mail or phone is required.",
    [
      PASSWORD,
      stringParam("new_email", "The e-mail address to use from now on.", false),
      stringParam("new_phone_number", "The phone number to use from now on, written xxx-xxx-xxxx.", false),
      stringParam("new_name", "The name to use from now on.", false),
    ],
    { text: STATUS_RETURNS, schema: STATUS_SCHEMA },
    true,
    [
      ...AUTH_ERRORS,
      "The password is incorrect.",
      "You need to provide at least one of new_email and new_phone_number.",
      "The email is invalid.",
      "The phone number is invalid.",
    ],
  ),
  requiresAuth: true,
  call(args, { world }) {
    const user = accountByToken(world, arg(args, "session_token"));
    if (!pyEquals(user.row.password, arg(args, "password"))) throw apiException("The password is incorrect.");
    const [email, phone, name] = [arg(args, "new_email"), arg(args, "new_phone_number"), arg(args, "new_name")];
    if (email === null && phone === null) throw apiException("You need to provide at least one of new_email and new_phone_number.");
    // Each change is stored as soon as it is checked: a bad phone number keeps a new e-mail.
    let entry = accountByUsername(world, user.row.username ?? null) ?? user;
    if (email !== null) {
      if (!pyReMatches(EMAIL_PATTERN, email)) throw apiException("The email is invalid.");
      entry = updateAccount(world, entry, { email: toCell(email) });
    }
    if (phone !== null) {
      if (!pyReMatches(PHONE_PATTERN, phone)) throw apiException("The phone number is invalid.");
      entry = updateAccount(world, entry, { phone: toCell(phone) });
    }
    if (name !== null) updateAccount(world, entry, { name: toCell(name) });
    return { ...SUCCESS };
  },
};

const userLogin: ToolTalkApi = {
  definition: tool(
    "UserLogin",
    "Log a user in with username and password.",
    [USERNAME, stringParam("password", "The account's password.", true)],
    {
      text: "session_token: the token of the new login.",
      schema: { type: "object", properties: { session_token: { type: "string" } } },
    },
    true,
    [
      "Only one user can be logged in at a time. Current user is ….",
      "The username does not exist.",
      "The password is incorrect.",
      "The user is already logged in.",
    ],
  ),
  requiresAuth: false,
  newId: sessionToken,
  call(args, { world, random }) {
    const user = accountByUsername(world, arg(args, "username"));
    if (!user) throw apiException("The username does not exist.");
    if (!pyEquals(user.row.password, arg(args, "password"))) throw apiException("The password is incorrect.");
    if ((user.row.session_token ?? null) !== null) throw apiException("The user is already logged in.");
    const token = sessionToken(random);
    updateAccount(world, user, { session_token: token });
    return { session_token: token };
  },
};

/** The suite in ToolTalk's listing order. */
export const ACCOUNT_APIS: readonly ToolTalkApi[] = [
  changePassword,
  deleteAccount,
  getAccountInformation,
  logoutUser,
  queryUser,
  registerUser,
  resetPassword,
  sendVerificationCode,
  updateAccountInformation,
  userLogin,
];
