// The two strips under the toolbar: the red banner of a damaged file (where it was cut, from the
// host), and the notice of what the panel ignored (invalid messages) or hides (a filter that
// leaves nothing). Each says one thing, or is hidden.
import { el } from "./dom.js";

export class NoticesView {
  readonly banner = el("div", { class: "banner damaged", attrs: { role: "alert", "data-testid": "damaged" } });
  readonly notice = el("div", { class: "notice", attrs: { role: "status", "data-testid": "notice" } });
  /** Where a damaged file was cut (the host says); cleared by the next header. */
  damage: string | null = null;
  readonly rejected: string[] = [];

  constructor() {
    this.banner.hidden = true;
    this.notice.hidden = true;
  }

  render(filterHidesAll: boolean): void {
    this.banner.textContent = this.damage === null ? "" : `Damaged trajectory. ${this.damage}`;
    this.banner.hidden = this.damage === null;
    const parts: string[] = [];
    const n = this.rejected.length;
    if (n > 0)
      parts.push(
        `${n} message${n === 1 ? " was" : "s were"} ignored because ${n === 1 ? "it is" : "they are"} not valid (first: ${this.rejected[0]}).`,
      );
    if (filterHidesAll) parts.push("The role filter hides every message.");
    this.notice.textContent = parts.join(" ");
    this.notice.hidden = parts.length === 0;
  }
}
