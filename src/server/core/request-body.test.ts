// Reading a request's body: a body read whole, and one whose client left before or while it is read. The pipeline reads
// a body only after the credential's statement, so the client may have closed the connection by then.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/errors/app-error';
import { readBodyText } from './request-body';

/** A request of `declared` bytes whose stream the test drives. */
function request(declared: number): IncomingMessage {
  const stream = new Readable({ read() {} }) as unknown as IncomingMessage;
  stream.headers = { 'content-length': String(declared) };
  return stream;
}

const cutShort = {
  appCode: 'VALIDATION_ERROR',
  message: 'The request body ended before it was complete (the connection closed).',
};

describe('readBodyText', () => {
  it('reads the whole body as UTF-8, in chunks', async () => {
    const req = request(8);
    const text = readBodyText(req);
    (req as unknown as Readable).push(Buffer.from('{"a":'));
    (req as unknown as Readable).push(Buffer.from('"é"}'));
    (req as unknown as Readable).push(null);
    expect(await text).toBe('{"a":"é"}');
  });

  it('answers a body cut short while it is read', async () => {
    const req = request(1000);
    const text = readBodyText(req);
    (req as unknown as Readable).push(Buffer.from('{"terms": ["sle'));
    (req as unknown as Readable).destroy();
    await expect(text).rejects.toMatchObject(cutShort);
  });

  it('answers a body whose connection closed before it was read, instead of waiting for events that are over', async () => {
    const req = request(1000);
    (req as unknown as Readable).push(Buffer.from('{"terms": ["sle'));
    (req as unknown as Readable).destroy();
    await new Promise((resolve) => setImmediate(resolve));
    const text = readBodyText(req);
    await expect(
      Promise.race([
        text.then(
          () => 'read',
          (error: AppError) => error,
        ),
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000)),
      ]),
    ).resolves.toMatchObject(cutShort);
  });
});
