// What the colour tests need: VS Code's theme as a webview receives it (the body's class and the
// --vscode-* variables on the html element, here the Dark Modern and Light Modern values the pages
// use), and the contrast of an element's text against what is drawn under it.
import type { Page } from "playwright-core";

export type ThemeCase = "vscode-dark" | "vscode-light" | "vscode-high-contrast" | "vscode-high-contrast-light" | "dark" | "light";

/** The kinds of theme VS Code bundles (Dark Modern, Light Modern, Dark High Contrast, Light High Contrast), and the pages' own. */
export const ALL_THEMES: readonly ThemeCase[] = [
  "vscode-dark",
  "vscode-light",
  "vscode-high-contrast",
  "vscode-high-contrast-light",
  "dark",
  "light",
];

type VsCodeTheme = Exclude<ThemeCase, "dark" | "light">;

/** The --vscode-* variables the panel, the runs view and the compare page read, per theme kind. */
// The high-contrast values are VS Code's colour registry defaults for hcDark and hcLight (the
// bundled high-contrast themes set almost nothing of their own); a colour the registry leaves null
// there is not sent to the webview at all, so it is missing here too.
const VSCODE_VARIABLES: Readonly<Record<VsCodeTheme, Readonly<Record<string, string>>>> = {
  "vscode-dark": {
    "editor-background": "#1f1f1f",
    "editor-foreground": "#cccccc",
    "sideBar-background": "#181818",
    descriptionForeground: "#9d9d9d",
    "panel-border": "#2b2b2b",
    "editorGroup-border": "#ffffff17",
    focusBorder: "#0078d4",
    "list-inactiveSelectionBackground": "#37373d",
    "list-activeSelectionBackground": "#04395e",
    "list-activeSelectionForeground": "#ffffff",
    "list-hoverBackground": "#2a2d2e",
    "editor-findMatchHighlightBackground": "#ea5c0055",
    "textLink-foreground": "#4daafc",
    "charts-green": "#89d185",
    "charts-red": "#f14c4c",
    "charts-yellow": "#cca700",
    "diffEditor-insertedTextBackground": "#9ccc2c33",
    "diffEditor-removedTextBackground": "#ff000033",
    "diffEditor-removedLineBackground": "#ff000033",
    "inputValidation-warningBackground": "#352a05",
    errorForeground: "#f85149",
    "testing-iconPassed": "#73c991",
    "editorWarning-foreground": "#cca700",
    "charts-blue": "#3794ff",
    "charts-purple": "#b180d7",
    "charts-orange": "#d18616",
  },
  "vscode-light": {
    "editor-background": "#ffffff",
    "editor-foreground": "#3b3b3b",
    "sideBar-background": "#f8f8f8",
    descriptionForeground: "#3b3b3b",
    "panel-border": "#e5e5e5",
    "editorGroup-border": "#e5e5e5",
    focusBorder: "#005fb8",
    "list-inactiveSelectionBackground": "#e4e6f1",
    "list-activeSelectionBackground": "#0060c0",
    "list-activeSelectionForeground": "#ffffff",
    "list-hoverBackground": "#f2f2f2",
    "editor-findMatchHighlightBackground": "#ea5c0055",
    "textLink-foreground": "#005fb8",
    "charts-green": "#388a34",
    "charts-red": "#e51400",
    "charts-yellow": "#bf8803",
    "diffEditor-insertedTextBackground": "#9ccc2c40",
    "diffEditor-removedTextBackground": "#ff000033",
    "diffEditor-removedLineBackground": "#ff000033",
    "inputValidation-warningBackground": "#f6f5d2",
    errorForeground: "#f85149",
    "testing-iconPassed": "#73c991",
    "editorWarning-foreground": "#bf8803",
    "charts-blue": "#1a85ff",
    "charts-purple": "#652d90",
    "charts-orange": "#d18616",
  },
  "vscode-high-contrast": {
    "editor-background": "#000000",
    "editor-foreground": "#ffffff",
    "sideBar-background": "#000000",
    descriptionForeground: "#ffffffb3",
    "panel-border": "#6fc3df",
    "editorGroup-border": "#6fc3df",
    focusBorder: "#f38518",
    "list-hoverBackground": "#ffffff1a",
    "textLink-foreground": "#21a6ff",
    "textCodeBlock-background": "#000000",
    "charts-green": "#89d185",
    "charts-red": "#f48771",
    "charts-yellow": "#ffd370",
    "charts-blue": "#3794ff",
    "charts-purple": "#b180d7",
    "charts-orange": "#ab5a00",
    "inputValidation-warningBackground": "#000000",
    errorForeground: "#f48771",
    "testing-iconPassed": "#73c991",
    "editorWarning-foreground": "#ffd370",
  },
  "vscode-high-contrast-light": {
    "editor-background": "#ffffff",
    "editor-foreground": "#292929",
    "sideBar-background": "#ffffff",
    descriptionForeground: "#292929b3",
    "panel-border": "#0f4a85",
    "editorGroup-border": "#0f4a85",
    focusBorder: "#006bbd",
    "list-inactiveSelectionBackground": "#0f4a851a",
    "list-activeSelectionBackground": "#0f4a851a",
    "list-hoverBackground": "#0f4a851a",
    "textLink-foreground": "#0f4a85",
    "textCodeBlock-background": "#f2f2f2",
    "charts-green": "#374e06",
    "charts-red": "#b5200d",
    "charts-yellow": "#895503",
    "charts-blue": "#1a85ff",
    "charts-purple": "#652d90",
    "charts-orange": "#0f4a85",
    "inputValidation-warningBackground": "#ffffff",
    errorForeground: "#b5200d",
    "testing-iconPassed": "#007100",
    "editorWarning-foreground": "#895503",
  },
};

/** The body classes VS Code gives a webview per theme kind (a light high-contrast theme has both). */
const BODY_CLASSES: Readonly<Record<VsCodeTheme, readonly string[]>> = {
  "vscode-dark": ["vscode-dark"],
  "vscode-light": ["vscode-light"],
  "vscode-high-contrast": ["vscode-high-contrast"],
  "vscode-high-contrast-light": ["vscode-high-contrast-light", "vscode-high-contrast"],
};

/**
 * Puts the page in one theme. A VS Code theme comes with the opposite colour scheme from the browser
 * (code-server showing a dark theme in a light browser, the case the issue met); without VS Code the
 * page follows the colour scheme alone.
 */
export async function applyTheme(page: Page, theme: ThemeCase): Promise<void> {
  const vscode = theme !== "dark" && theme !== "light";
  const darkTheme = theme === "vscode-dark" || theme === "vscode-high-contrast" || theme === "dark";
  // VS Code's theme under the opposite colour scheme of the browser; the pages' own themes follow theirs.
  await page.emulateMedia({ colorScheme: vscode ? (darkTheme ? "light" : "dark") : darkTheme ? "dark" : "light" });
  const variables = vscode ? VSCODE_VARIABLES[theme] : {};
  const names = [...new Set(Object.values(VSCODE_VARIABLES).flatMap((v) => Object.keys(v)))];
  await page.evaluate(
    ({ classes, vars, names }) => {
      document.body.classList.remove("vscode-dark", "vscode-light", "vscode-high-contrast", "vscode-high-contrast-light");
      document.body.classList.add(...classes);
      for (const name of names) document.documentElement.style.removeProperty(`--vscode-${name}`);
      for (const [name, value] of Object.entries(vars)) document.documentElement.style.setProperty(`--vscode-${name}`, value);
    },
    { classes: vscode ? [...BODY_CLASSES[theme]] : [], vars: variables, names },
  );
}

interface Contrast {
  readonly selector: string;
  /** WCAG contrast ratio of the text over its background; -1 when nothing matched. */
  readonly ratio: number;
  readonly color: string;
  readonly background: string;
}

// A string, not a function: tsx would wrap a named function in a helper the page does not have.
const CONTRAST_SCRIPT = `(selectors) => {
  const parse = (c) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(c);
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter((x) => x !== "").map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const backgroundOf = (element) => {
    const layers = [];
    let base = [255, 255, 255, 1];
    for (let e = element; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) {
        if (c[3] >= 1) { base = c; break; }
        layers.push(c);
      }
    }
    for (const layer of layers.reverse()) base = over(layer, base);
    return base;
  };
  const luminance = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  return selectors.map((selector) => {
    const element = document.querySelector(selector);
    if (!element) return { selector, ratio: -1, color: "", background: "" };
    const background = backgroundOf(element);
    const color = over(parse(getComputedStyle(element).color), background);
    const [light, dark] = [luminance(color), luminance(background)].sort((a, b) => b - a);
    return {
      selector,
      ratio: Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100,
      color: color.slice(0, 3).map(Math.round).join(","),
      background: background.slice(0, 3).map(Math.round).join(","),
    };
  });
}`;

/** The contrast of the first element matching each selector. */
export function contrasts(page: Page, selectors: readonly string[]): Promise<Contrast[]> {
  return page.evaluate(`(${CONTRAST_SCRIPT})(${JSON.stringify(selectors)})`) as Promise<Contrast[]>;
}

/** The computed colour a CSS value gives on this page (a custom property resolved, say), as rgb(). */
export function resolvedColor(page: Page, value: string): Promise<string> {
  return page.evaluate((v) => {
    const probe = document.createElement("span");
    probe.style.color = v;
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  }, value);
}
