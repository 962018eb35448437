// The model_call line at the panel's boundary (telemetry of one model request), checked field by
// field against schemas/trajectory.schema.json. The bodies are any JSON, checked in place.
import type { ModelCall, ModelCallRole, TokenUsage } from "../../../engine/episode/types.js";
import type { PanelLine } from "../../../engine/panel/protocol.js";
import { index, json, nullable, oneOf, prop, record, str, type Reader } from "./check.js";

const ROLES: readonly ModelCallRole[] = ["agent", "user"];
const USAGE_FIELDS = ["prompt_tokens", "completion_tokens", "total_tokens"] as const;

export function modelCallLine(o: Readonly<Record<string, unknown>>, path: string): Extract<PanelLine, { type: "model_call" }> {
  return {
    type: "model_call",
    role: oneOf(ROLES)(prop(o, "role"), `${path}/role`),
    index: index(prop(o, "index"), `${path}/index`),
    call: modelCall(prop(o, "call"), `${path}/call`),
  };
}

function modelCall(value: unknown, path: string): ModelCall {
  const o = record(value, path);
  const error = prop(o, "error");
  const request = prop(o, "request");
  const response = prop(o, "response");
  const cached = prop(o, "cached");
  return {
    model: str(prop(o, "model"), `${path}/model`),
    latency_ms: index(prop(o, "latency_ms"), `${path}/latency_ms`),
    attempts: index(prop(o, "attempts"), `${path}/attempts`),
    request_id: nullable(str)(prop(o, "request_id"), `${path}/request_id`),
    usage: nullable(tokenUsage)(prop(o, "usage"), `${path}/usage`),
    ...(error === undefined ? {} : { error: str(error, `${path}/error`) }),
    ...(request === undefined ? {} : { request: json(request, `${path}/request`) }),
    ...(response === undefined ? {} : { response: json(response, `${path}/response`) }),
    ...(cached === undefined
      ? {}
      : { cached: { usage: nullable(tokenUsage)(prop(record(cached, `${path}/cached`), "usage"), `${path}/cached/usage`) } }),
  };
}

const tokenUsage: Reader<TokenUsage> = (value, path) => {
  const o = record(value, path);
  const usage: { -readonly [K in keyof TokenUsage]: number } = {};
  for (const field of USAGE_FIELDS) {
    const n = prop(o, field);
    if (n !== undefined) usage[field] = index(n, `${path}/${field}`);
  }
  return usage;
};
