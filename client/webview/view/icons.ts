// Toolbar icons as inline SVG built with the DOM (no icon font: the CSP loads no fonts, and
// media-control glyphs are missing from many system fonts). 24×24 paths, filled with the text colour.

const PATHS = {
  first: "M4 5h2v14H4zM13 5l-7 7 7 7zM21 5l-7 7 7 7z",
  back: "M6 5h2v14H6zM18 5l-9 7 9 7z",
  play: "M8 5v14l11-7z",
  pause: "M7 5h4v14H7zM13 5h4v14h-4z",
  step: "M6 5l9 7-9 7zM16 5h2v14h-2z",
  last: "M3 5l7 7-7 7zM11 5l7 7-7 7zM18 5h2v14h-2z",
  milestone: "M5 3h2v18H5zM8 4h9l-2.5 4L17 12H8z",
  up: "M12 7l7 9H5z",
  down: "M12 17L5 8h14z",
} as const;

export type IconName = keyof typeof PATHS;

const SVG = "http://www.w3.org/2000/svg";

export function icon(name: IconName): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "14");
  svg.setAttribute("height", "14");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", PATHS[name]);
  path.setAttribute("fill", "currentColor");
  svg.appendChild(path);
  return svg;
}
