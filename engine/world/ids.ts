// Name-based row ids. Upstream makes its default ids with uuid5 in the URL namespace, and a row a
// scenario adds without a key gets one the same way, whatever the pack: so this sits below the packs.
import { v5 as uuidv5 } from "uuid";

const URL_NAMESPACE = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";

/** uuid5 of `payload` in the URL namespace: the same id upstream derives from the same text. */
export const uuid5 = (payload: string): string => uuidv5(payload, URL_NAMESPACE);
