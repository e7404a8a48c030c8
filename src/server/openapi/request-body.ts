// POST bodies: media type (SPEC rule 1), size limit and JSON syntax, checked before input validation.
import { AppError } from '@/server/errors/app-error';
import { MAX_BODY_BYTES, payloadTooLargeProblem } from '@/server/errors/problem-response';

/** application/json, text/json or application/*+json; parameters allowed, charset only UTF-8. */
export function checkJsonMediaType(contentType: string | null): void {
  if (!contentType?.trim()) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The request has a body but no Content-Type; send it as application/json.');
  }
  const [essence = '', ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  const isJson = essence === 'application/json' || essence === 'text/json' || /^application\/[a-z0-9!#$&^_.-]+\+json$/.test(essence);
  if (!isJson) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Type "${essence.slice(0, 100)}" is not accepted; send JSON as application/json, text/json or application/*+json.`);
  }
  const charset = parameters.find((parameter) => parameter.startsWith('charset='))?.slice(8).replace(/"/g, '');
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `JSON bodies must be UTF-8; charset "${charset.slice(0, 40)}" is not accepted.`);
  }
}

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', payloadTooLargeProblem().message);

/** Reads at most MAX_BODY_BYTES, whatever Content-Length claims, then parses. Returns the text and its value. */
export async function readJsonBody(request: Request): Promise<{ text: string; value: unknown }> {
  checkJsonMediaType(request.headers.get('content-type'));
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw tooLarge();

  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read().catch(() => {
        // The client closed the connection before sending its whole body: its fault, not a server error.
        throw new AppError('VALIDATION_ERROR', 'The request body ended before it was complete (the connection closed).', {
          errors: [{ in: 'body', pointer: '#', detail: 'The body was cut short.' }],
        });
      });
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new AppError('VALIDATION_ERROR', 'The request body is not valid UTF-8.', {
      errors: [{ in: 'body', pointer: '#', detail: 'The body contains bytes that are not UTF-8.' }],
    });
  }
  if (!text.trim()) {
    throw new AppError('VALIDATION_ERROR', 'The request body is empty; send a JSON object.', {
      errors: [{ in: 'body', pointer: '#', detail: 'The request body is empty.' }],
    });
  }
  try {
    return { text, value: JSON.parse(text) };
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'unparseable';
    throw new AppError('VALIDATION_ERROR', `The request body is not valid JSON: ${reason}`, {
      errors: [{ in: 'body', pointer: '#', detail: `Malformed JSON: ${reason}` }],
    });
  }
}
