// The tests of one end-to-end file share one workbench and build on each other (a run, then its
// results, then its panel). A failed step saves a screenshot of the workbench as it was, and the
// steps after it are skipped with the reason instead of each waiting out its own timeouts.
import { test } from "node:test";
import type { Workbench } from "./workbench.js";

/** Generous: a step waits on the workbench, the extension host and the language server of a busy 2-core machine. */
const STEP_TIMEOUT_MS = 180_000;

export function stepsOn(workbench: () => Workbench | undefined): (name: string, body: () => Promise<void>) => void {
  let failed: string | null = null;
  return (name, body) => {
    test(name, { timeout: STEP_TIMEOUT_MS }, async (t) => {
      if (failed !== null) {
        t.skip(`an earlier step failed: ${failed}`);
        return;
      }
      try {
        await body();
      } catch (e) {
        failed = name;
        const shot = await workbench()
          ?.screenshot("FAILED")
          .catch(() => null);
        if (shot) t.diagnostic(`screenshot: ${shot}`);
        throw e;
      }
    });
  };
}
