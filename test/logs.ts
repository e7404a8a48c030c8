// The log lines a test's requests write to stdout (one JSON line per API request), kept instead of printed.
// Call vi.restoreAllMocks() to stop capturing.
import { vi } from 'vitest';
import { flushRequestLog } from '@/server/core/log';

/** Starts capturing; the function it returns answers the lines written so far, the request log's waiting ones included. */
export function captureLogs(): () => string[] {
  const chunks: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  return () => {
    flushRequestLog();
    return chunks.join('').split('\n').filter(Boolean);
  };
}
