// Which model endpoints count as local: those on this machine (a mock-llm, a local vLLM or
// Ollama). A local endpoint gets a placeholder key when none is stored, so it works without one;
// any other endpoint asks for a key first.
import { isIP } from "node:net";

/** True for loopback hosts: localhost, *.localhost, 127.0.0.0/8, ::1 and the unspecified address. */
export function isLocalEndpoint(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.") || host === "0.0.0.0";
  if (isIP(host) === 6) return host === "::1" || host === "::";
  return false;
}

/**
 * The key a stored API key is filed under: the endpoint's origin ("https://api.openai.com"), so
 * roles on one service share one key and roles on two services keep two. Null for a bad URL.
 */
export function endpointOrigin(baseUrl: string): string | null {
  try {
    const url = new URL(baseUrl);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}
