// The only way the panel creates elements. Text is always added as text nodes, and attributes are
// set one by one with a refusal for event handlers and inline styles, so model, tool and file
// content can never become markup, and links only ever point at http(s). There is no innerHTML
// anywhere in the panel.
import { isAllowedLink } from "../links.js";

type Child = Node | string | null | undefined | false;

interface Props {
  readonly class?: string;
  readonly text?: string;
  readonly title?: string;
  readonly attrs?: Readonly<Record<string, string>>;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.class) node.className = props.class;
  if (props.title !== undefined) node.title = props.title;
  if (props.text !== undefined) node.textContent = props.text;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    const lower = name.toLowerCase();
    if (lower.startsWith("on") || lower === "style" || lower === "srcdoc") throw new Error(`refusing to set the ${name} attribute`);
    if ((lower === "href" || lower === "src" || lower === "action") && !isAllowedLink(value))
      throw new Error(`refusing ${name}="${value}"`);
    node.setAttribute(name, value);
  }
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
}

/** Replaces all children of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

export function button(label: string, props: Props, onClick: () => void): HTMLButtonElement {
  const b = el("button", { ...props, text: label, attrs: { type: "button", ...props.attrs } });
  b.addEventListener("click", onClick);
  return b;
}
