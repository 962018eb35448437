// Entry point of the runs view bundle (dist/runs.js): the page `toolsandbox report --html` writes
// (the runs embedded, like an exported replay) or the extension's runs view (posted). Whatever
// arrives is validated before it is shown.
import "./runs.css";
import { ROOT_ELEMENT_ID } from "../../../engine/panel/protocol.js";
import { staticHost } from "../hosts/static-host.js";
import { vscodeHost } from "../hosts/vscode-host.js";
import { attempt, prop, record } from "../validate/check.js";
import { el } from "../view/dom.js";
import { RunsView } from "./runs-view.js";
import { runsData } from "./validate.js";

function boot(): void {
  const root = document.getElementById(ROOT_ELEMENT_ID) ?? document.body.appendChild(el("div", { attrs: { id: ROOT_ELEMENT_ID } }));
  const host = staticHost() ?? vscodeHost();
  if (host === null) {
    root.replaceChildren(el("p", { class: "placeholder", text: "This page has no runs to show." }));
    return;
  }
  const view = new RunsView((request) => host.request(request), host.capabilities.commands);
  root.replaceChildren(view.element);
  const notice = el("p", { class: "notice", attrs: { role: "status", "data-testid": "notice" } });
  notice.hidden = true;
  root.append(notice);
  host.connect((message) => {
    // The exported page delivers its embedded data as one "lines" batch of one element.
    const checked = attempt(() => {
      const o = record(message, "");
      const lines = prop(o, "lines");
      return runsData(Array.isArray(lines) ? lines[0] : message, "");
    });
    if (checked.ok) view.show(checked.value);
    else {
      console.warn(`toolsandbox runs: ignored a message from the host: ${checked.error}`);
      notice.textContent = `Ignored data that is not valid (${checked.error}).`;
      notice.hidden = false;
    }
  });
}

boot();
