// The ToolTalk test harness (test/packs/tooltalk/harness.ts) on ToolTalk's published databases: the
// tool tests here check our tools against the rows and ids of ToolTalk's own data.
import { harnessOn } from "../../../../packs/tooltalk/harness.js";
import { toolTalkDatabases } from "../../published-data.js";

export { ownRows, utcSeconds, type Harness } from "../../../../packs/tooltalk/harness.js";
export const { harness, loggedIn } = harnessOn(toolTalkDatabases);
