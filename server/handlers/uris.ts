// Document URIs as the engine sees them: a path for file: URIs, the URI itself otherwise
// (an unsaved "untitled:" buffer has no path, but its diagnostics still need a name).
import { fileURLToPath } from "node:url";

export function fileName(uri: string): string {
  return filePath(uri) ?? uri;
}

/** The local path of a file: URI; null for any other scheme or a URI that is not a path. */
export function filePath(uri: string): string | null {
  if (!uri.startsWith("file:")) return null;
  try {
    return fileURLToPath(uri);
  } catch {
    return null;
  }
}
