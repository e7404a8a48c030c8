// POST bodies: media type (SPEC rule 1), size limit and JSON syntax, checked before input validation.
import type { IncomingMessage } from 'node:http';
import { AppError } from '@/server/errors/app-error';
import { MAX_BODY_BYTES, payloadTooLargeProblem } from '@/server/errors/problem-response';

/** application/json, text/json or application/*+json; parameters allowed, charset only UTF-8. */
function checkJsonMediaType(contentType: string | null): void {
  if (!contentType?.trim()) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'The request has a body but no Content-Type; send it as application/json.',
    );
  }
  const [essence = '', ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  const isJson =
    essence === 'application/json' || essence === 'text/json' || /^application\/[a-z0-9!#$&^_.-]+\+json$/.test(essence);
  if (!isJson) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Content-Type "${essence.slice(0, 100)}" is not accepted; send JSON as application/json, text/json or application/*+json.`,
    );
  }
  const charset = parameters
    .find((parameter) => parameter.startsWith('charset='))
    ?.slice(8)
    .replace(/"/g, '');
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `JSON bodies must be UTF-8; charset "${charset.slice(0, 40)}" is not accepted.`,
    );
  }
}

/**
 * The deepest nesting of arrays and objects a body may have. Every body of the API nests two levels; a 64 KiB body
 * could nest 32,000, deeper than JSON.stringify (or any recursive walk) goes before the stack runs out.
 */
const MAX_JSON_DEPTH = 32;

/** How deep the text's arrays and objects nest, read without parsing (brackets inside strings do not count). */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index++; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x5d || char === 0x7d) depth--;
  }
  return deepest;
}

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', payloadTooLargeProblem().message);

/** The client closed the connection before sending its whole body: its fault, not a server error. */
const cutShort = () =>
  new AppError('VALIDATION_ERROR', 'The request body ended before it was complete (the connection closed).', {
    errors: [{ in: 'body', pointer: '#', detail: 'The body was cut short.' }],
  });

/**
 * The body's bytes as UTF-8 text, reading at most MAX_BODY_BYTES whatever Content-Length claims (the rest is left
 * unread, and the answer closes the connection). Shared by the REST pipeline and the MCP endpoint.
 */
export async function readBodyText(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readBodyBytes(req);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError('VALIDATION_ERROR', 'The request body is not valid UTF-8.', {
      errors: [{ in: 'body', pointer: '#', detail: 'The body contains bytes that are not UTF-8.' }],
    });
  }
}

/**
 * The body's bytes, read with the stream's events rather than its async iterator, which wraps the stream (end of
 * stream, a promise per chunk) at more cost than a small body's reading. A request emits 'error' only while it has a
 * listener, so none is left behind once the body is read or refused. The pipeline reads a body after the credential's
 * statement: a connection the client closed meanwhile has had its last event, so its state is read first.
 */
function readBodyBytes(req: IncomingMessage): Promise<Buffer> {
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (req.destroyed) return Promise.reject(cutShort());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (refusal: AppError | null) => {
      req.off('data', onData).off('end', onEnd).off('error', onCutShort).off('close', onCutShort);
      if (refusal) reject(refusal);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) {
        // Nothing more is kept: the answer's sender reads the rest and throws it away (src/server/core/unread-body.ts).
        req.pause();
        settle(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => settle(null);
    const onCutShort = () => settle(cutShort());
    req.on('data', onData).on('end', onEnd).on('error', onCutShort).on('close', onCutShort);
  });
}

/**
 * Reads the body (readBodyText), then parses. Returns the body's JSON value, or `emptyAs` for an empty body when the
 * endpoint needs none (else an empty body is a validation error).
 */
export async function readJsonBody(req: IncomingMessage, { emptyAs }: { emptyAs?: unknown } = {}): Promise<unknown> {
  checkJsonMediaType(req.headers['content-type'] ?? null);
  const text = await readBodyText(req);
  if (!text.trim()) {
    if (emptyAs !== undefined) return emptyAs;
    throw new AppError('VALIDATION_ERROR', 'The request body is empty; send a JSON object.', {
      errors: [{ in: 'body', pointer: '#', detail: 'The request body is empty.' }],
    });
  }
  if (nestingDepth(text) > MAX_JSON_DEPTH) {
    throw new AppError(
      'VALIDATION_ERROR',
      `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} deep.`,
      {
        errors: [{ in: 'body', pointer: '#', detail: `Nested more than ${MAX_JSON_DEPTH} levels deep.` }],
      },
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'unparseable';
    throw new AppError('VALIDATION_ERROR', `The request body is not valid JSON: ${reason}`, {
      errors: [{ in: 'body', pointer: '#', detail: `Malformed JSON: ${reason}` }],
    });
  }
}
