// Both directions of the panel ↔ host boundary. The panel checks what the host sends (a trajectory
// written by a model can hold anything); the host checks what the panel asks for with
// parseViewRequest before acting on it (a compromised view must not open arbitrary links).
import { isAllowedLink } from "../links.js";
import {
  LIVE_STATES,
  NODE_KINDS,
  PANEL_COMMANDS,
  RUN_CONTROLS,
  type PanelHostMessage,
  type PanelLine,
  type ViewRequest,
} from "../../../engine/panel/protocol.js";
import { attempt, index, list, oneOf, prop, record, str, unit, WireError } from "./check.js";
import { dialogToolReport } from "./dialogtool.js";
import { playFormMessage, playRequest } from "./play.js";
import { trajectoryLine } from "./trajectory-line.js";

type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** A message from the host, or why it was rejected. Bad lines inside a batch are dropped and listed. */
export function parseHostMessage(value: unknown): Checked<PanelHostMessage> {
  return attempt((): PanelHostMessage => {
    const o = record(value, "");
    const type = prop(o, "type");
    switch (type) {
      case "lines": {
        const raw = prop(o, "lines");
        if (!Array.isArray(raw)) throw new WireError("/lines", "must be a list");
        const lines: PanelLine[] = [];
        const rejected: string[] = [];
        raw.forEach((line: unknown, i) => {
          const checked = attempt(() => trajectoryLine(line, `/lines/${i}`));
          if (checked.ok) lines.push(checked.value);
          else rejected.push(checked.error);
        });
        return { type, lines, rejected };
      }
      case "reveal":
        return { type, index: index(prop(o, "index"), "/index") };
      case "live":
        return { type, state: oneOf(LIVE_STATES)(prop(o, "state"), "/state") };
      case "loading": {
        const total = index(prop(o, "total"), "/total");
        const loaded = index(prop(o, "loaded"), "/loaded");
        if (loaded > total) throw new WireError("/loaded", `must be at most the total (${total})`);
        return { type, loaded, total };
      }
      case "damaged":
        return { type, problem: str(prop(o, "problem"), "/problem").slice(0, 1000) };
      case "dialogtool":
        return { type, report: dialogToolReport(prop(o, "report"), "/report") };
      case "score-source": {
        const rescored = prop(o, "rescored");
        if (rescored === null) return { type, rescored: null };
        const recorded = prop(record(rescored, "/rescored"), "recorded");
        return { type, rescored: { recorded: recorded === null ? null : unit(recorded, "/rescored/recorded") } };
      }
      case "play":
        return playFormMessage(o);
      default:
        return trajectoryLine(o, "");
    }
  });
}

/** A request from the panel, or why the host must ignore it. Links outside http/https are refused here. */
export function parseViewRequest(value: unknown): Checked<ViewRequest> {
  return attempt((): ViewRequest => {
    const o = record(value, "");
    const type = prop(o, "type");
    switch (type) {
      case "ready":
        return { type };
      case "open-link": {
        const url = str(prop(o, "url"), "/url");
        if (!isAllowedLink(url)) throw new WireError("/url", "must be an http or https link");
        return { type, url };
      }
      case "open-file":
        return { type, path: str(prop(o, "path"), "/path").slice(0, 4096) };
      case "reveal-node":
        return { type, kind: oneOf(NODE_KINDS)(prop(o, "kind"), "/kind"), id: str(prop(o, "id"), "/id") };
      case "run-control":
        return { type, action: oneOf(RUN_CONTROLS)(prop(o, "action"), "/action") };
      case "selected":
        return { type, index: index(prop(o, "index"), "/index") };
      case "command":
        return { type, command: oneOf(PANEL_COMMANDS)(prop(o, "command"), "/command") };
      case "open-run":
        return { type, file: str(prop(o, "file"), "/file") };
      case "compare-runs": {
        const files = list(str)(prop(o, "files"), "/files");
        if (files.length !== 2) throw new WireError("/files", "must name two runs");
        return { type, files: [files[0]!, files[1]!] };
      }
      case "save-as-scenario":
        return { type, file: str(prop(o, "file"), "/file") };
      case "play-call":
      case "play-say":
      case "play-quit":
        return playRequest(o, type);
      default:
        throw new WireError("/type", `is not a request the panel makes: ${JSON.stringify(type ?? null)}`);
    }
  });
}
