// The draft as YAML, laid out like the sample scenarios: keys in the order the object gives them,
// short rows, argument maps and name lists on one line (flow style), a comment above each
// milestone and a header comment. Built with the `yaml` library's Document API, so
// quoting is always right (a phone number stays a string) and the bytes depend on the data alone.
import { Document, isMap, isScalar, isSeq, visit, type YAMLMap, type YAMLSeq } from "yaml";
import type { JsonObject } from "../base/json.js";

/** A collection of scalars this short goes on one line. */
const FLOW_LIMIT = 90;
const LINE_WIDTH = 110;

export function draftYaml(doc: JsonObject, header: string, milestoneComments: readonly string[]): string {
  const document = new Document(doc);
  visit(document, {
    Map(_, node) {
      if (isShortScalars(node)) node.flow = true;
    },
    Seq(_, node) {
      if (isShortScalars(node)) node.flow = true;
    },
  });
  // Reference steps stay `- agent: ...` lines, as authors write them.
  const reference = document.get("reference", true);
  if (isSeq(reference)) for (const step of reference.items) if (isMap(step)) step.flow = false;
  const milestones = document.get("milestones", true);
  if (isSeq(milestones)) {
    milestones.items.forEach((item, i) => {
      const comment = milestoneComments[i];
      if (comment !== undefined && isMap(item)) item.commentBefore = wrap(comment);
    });
  }
  document.commentBefore = wrap(header);
  return document.toString({ lineWidth: LINE_WIDTH, minContentWidth: 40, flowCollectionPadding: false });
}

function isShortScalars(node: YAMLMap | YAMLSeq): boolean {
  const values = isMap(node) ? node.items.map((p) => p.value) : node.items;
  if (!values.every((v) => isScalar(v) && !(typeof v.value === "string" && v.value.includes("\n")))) return false;
  return JSON.stringify(node.toJSON()).length <= FLOW_LIMIT;
}

/** A comment's text in lines of at most the line width, each with the space after the `#`. */
function wrap(text: string): string {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(" ")) {
      if (line.length > 0 && line.length + word.length + 1 > LINE_WIDTH - 8) {
        lines.push(line);
        line = word;
      } else line = line.length === 0 ? word : `${line} ${word}`;
    }
    lines.push(line);
  }
  return lines.map((l) => ` ${l}`).join("\n");
}
