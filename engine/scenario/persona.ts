// The agent's persona (DialogTool's role configuration) as the resolved scenario carries it. The
// schema has already checked its shape, the MBTI type included (an unknown type is a `schema-enum`
// error at the value, with the closest type suggested), so this only copies the given fields.
import { MBTI_TYPES, type MbtiType, type Persona } from "./model.js";
import { obj, str } from "./raw.js";

const isMbti = (v: unknown): v is MbtiType => typeof v === "string" && (MBTI_TYPES as readonly string[]).includes(v);

/** The persona written under `agent.persona`, or null when there is none. */
export function resolvePersona(raw: unknown): Persona | null {
  const o = obj(raw);
  const name = str(o?.name);
  if (o === null || name === null) return null;
  const text = (key: "gender" | "language_features" | "emotional_traits"): Partial<Persona> => {
    const v = str(o[key]);
    return v !== null ? { [key]: v } : {};
  };
  return {
    name,
    ...text("gender"),
    ...(isMbti(o.mbti) ? { mbti: o.mbti } : {}),
    ...text("language_features"),
    ...text("emotional_traits"),
  };
}
