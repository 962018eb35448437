// Entry point of the panel bundle (dist/webview.js). Picks the host from the page it finds itself
// in: an embedded trajectory (an exported HTML file) or a VS Code webview.
import "./styles.css";
import { Panel } from "./app.js";
import { staticHost } from "./hosts/static-host.js";
import { vscodeHost } from "./hosts/vscode-host.js";
import { ROOT_ELEMENT_ID } from "../../engine/panel/protocol.js";
import { el } from "./view/dom.js";

function boot(): void {
  const root = document.getElementById(ROOT_ELEMENT_ID) ?? document.body.appendChild(el("div", { attrs: { id: ROOT_ELEMENT_ID } }));
  const host = staticHost() ?? vscodeHost();
  if (host === null) {
    root.replaceChildren(el("p", { class: "placeholder", text: "This page has no trajectory to show." }));
    return;
  }
  new Panel(root, host).start();
}

boot();
