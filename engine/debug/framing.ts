// The Debug Adapter Protocol's base framing read strictly: `Content-Length: <n>\r\n\r\n` then n
// bytes of JSON. The debug adapter library's own reader skips what it cannot parse (a header
// without a valid length desyncs it for good; a body that is not JSON ends the process with exit 0
// and no word). Here every bad frame is told apart, so the adapter can answer it or end with one
// line saying why.

/** A header block longer than this without its blank line is not DAP. */
const MAX_HEADER_BYTES = 8 * 1024;
/** A body longer than this is refused before it is buffered (the largest real request is a few KB). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const SEPARATOR = Buffer.from("\r\n\r\n");

export type Frame =
  /** A well-formed message: a JSON object. */
  | { readonly kind: "message"; readonly message: Readonly<Record<string, unknown>> }
  /** A frame whose length was right but whose body is not a JSON object; the frames after it can still be read. */
  | { readonly kind: "bad-body"; readonly problem: string }
  /** The stream cannot be read on from here (a header without a valid Content-Length); nothing after it is read. */
  | { readonly kind: "fatal"; readonly problem: string };

export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0);
  private bodyLength: number | null = null;
  private broken = false;

  /** The frames completed by `chunk`, in order; after a fatal one, nothing more. */
  push(chunk: Buffer): Frame[] {
    if (this.broken) return [];
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const frames: Frame[] = [];
    for (;;) {
      if (this.bodyLength === null) {
        const end = this.buffered.indexOf(SEPARATOR);
        if (end < 0) {
          if (this.buffered.length > MAX_HEADER_BYTES)
            frames.push(this.fail(`a header of over ${MAX_HEADER_BYTES} bytes without its blank line`));
          return frames;
        }
        const header = this.buffered.toString("latin1", 0, end);
        this.buffered = this.buffered.subarray(end + SEPARATOR.length);
        const length = contentLength(header);
        if (typeof length === "string") {
          frames.push(this.fail(length));
          return frames;
        }
        this.bodyLength = length;
      }
      if (this.buffered.length < this.bodyLength) return frames;
      const body = this.buffered.toString("utf8", 0, this.bodyLength);
      this.buffered = this.buffered.subarray(this.bodyLength);
      this.bodyLength = null;
      frames.push(parseBody(body));
    }
  }

  /** What is left unread when the stream ends: null when it ended between frames. */
  leftover(): string | null {
    if (this.broken) return null;
    if (this.bodyLength !== null)
      return `the input ended inside a frame: ${this.buffered.length} of the ${this.bodyLength} bytes its Content-Length announced`;
    if (this.buffered.toString("latin1").trim() !== "") return `the input ended inside a frame's header (${this.buffered.length} bytes)`;
    return null;
  }

  private fail(problem: string): Frame {
    this.broken = true;
    this.buffered = Buffer.alloc(0);
    return { kind: "fatal", problem };
  }
}

/** The header's Content-Length, or why there is none to trust. */
function contentLength(header: string): number | string {
  const shown = JSON.stringify(header.length > 80 ? `${header.slice(0, 77)}...` : header);
  const values: string[] = [];
  for (const line of header.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) return `a header line without a colon: ${shown}`;
    if (line.slice(0, colon).trim().toLowerCase() === "content-length") values.push(line.slice(colon + 1).trim());
  }
  if (values.length === 0) return `a header without Content-Length: ${shown}`;
  if (values.length > 1) return `a header with ${values.length} Content-Length fields: ${shown}`;
  const value = values[0] ?? "";
  if (!/^\d{1,12}$/.test(value)) return `a Content-Length that is not a whole number of bytes: ${shown}`;
  const n = Number(value);
  if (n > MAX_BODY_BYTES) return `a Content-Length of ${n} bytes, over the ${MAX_BODY_BYTES} this adapter reads`;
  return n;
}

function parseBody(body: string): Frame {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {
      kind: "bad-body",
      problem: `a frame whose body is not JSON: ${JSON.stringify(body.length > 60 ? `${body.slice(0, 57)}...` : body)}`,
    };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return {
      kind: "bad-body",
      problem: `a frame whose body is ${parsed === null ? "null" : Array.isArray(parsed) ? "an array" : typeof parsed}, not a message object`,
    };
  return { kind: "message", message: parsed as Record<string, unknown> };
}
