// A request refused before its body was read (too large, no credential, a method not served) still has that body on
// its way. Closing the connection at once while the client is still sending makes the client's system reset it, and
// a reset throws away what the client had not read yet: the client sees ECONNRESET or EPIPE, never the answer that
// says why (issue 63). So the answer goes on a connection that stays open, and the rest of the body is read and thrown
// away, as Node does for any body its handler left unread, within bounds: past DRAIN_MAX_BYTES or DRAIN_MAX_MS the
// connection is closed after all. A body declared longer than the bound gets `Connection: close` at once: reading it
// to its end would be refused anyway. Every channel answers a refusal through this (the REST pipeline, the MCP
// endpoint, the app server in front of Next.js).
import type { IncomingMessage } from 'node:http';
import type { Duplex, Readable } from 'node:stream';

/** The most of a refused body read and thrown away so that its answer arrives. */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
/** The longest a refused body is read for: a client sending slowly does not hold the connection. */
const DRAIN_MAX_MS = 30_000;

/** Whether the request's body is still arriving, unread. */
function leavesBodyUnread(req: IncomingMessage): boolean {
  return (
    !req.complete &&
    !req.readableEnded &&
    (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0)
  );
}

/**
 * Before an answer that leaves the body unread: reads the rest and throws it away, within the bounds, and returns no
 * header; or, for a body declared longer than the bound, returns `Connection: close`. Nothing for a body read whole.
 */
export function drainUnreadBody(req: IncomingMessage): { Connection?: 'close' } {
  if (!leavesBodyUnread(req)) return {};
  if (Number(req.headers['content-length'] ?? 0) > DRAIN_MAX_BYTES) return { Connection: 'close' };
  // The request's own destroy: on a server's request it closes the connection.
  const stop = discardWithinBounds(req, () => req.destroy());
  // A client that gives up mid-body is no error of ours.
  req.on('error', stop).once('end', stop);
  return {};
}

/**
 * Writes a last answer on a connection that cannot go on (a request that could not be read) and closes it as nginx's
 * lingering close does: the answer and our end of the connection go out at once, and what the client is still sending
 * is read and thrown away until it closes its end, within the same bounds, so that the client's system does not reset
 * the connection before the client has read the answer.
 */
export function answerAndLinger(socket: Duplex, answer: string): void {
  const cut = () => socket.destroy();
  socket.on('error', cut).once('end', cut);
  socket.end(answer);
  discardWithinBounds(socket, cut);
}

/**
 * Reads what `stream` still brings and throws it away, calling `cut` once DRAIN_MAX_BYTES have come or DRAIN_MAX_MS
 * have passed. Returns what stops the clock (called too when the stream closes).
 */
function discardWithinBounds(stream: Readable, cut: () => void): () => void {
  let bytes = 0;
  const timer = setTimeout(cut, DRAIN_MAX_MS).unref();
  const stop = () => clearTimeout(timer);
  stream.on('data', (chunk: Buffer) => {
    bytes += chunk.byteLength;
    if (bytes > DRAIN_MAX_BYTES) {
      stop();
      cut();
    }
  });
  stream.once('close', stop);
  stream.resume();
  return stop;
}
