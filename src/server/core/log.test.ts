import { afterEach, describe, expect, it, vi } from 'vitest';
import { logErrorThrottled } from './log';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('logErrorThrottled', () => {
  it('writes one line per interval for a key, then says how many it left out', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T00:00:00Z'));
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const fail = () => logErrorThrottled('test outage', 5_000, 'database unavailable', new Error('connect ENOENT'), { requestId: 'r' });
    fail();
    fail();
    fail();
    logErrorThrottled('another key', 5_000, 'other', new Error('x'));
    vi.setSystemTime(new Date('2026-11-22T00:00:05Z'));
    fail();
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['database unavailable', 'other', 'database unavailable']);
    expect(JSON.parse(lines[0]!).suppressedSinceLast).toBeUndefined();
    expect(JSON.parse(lines[2]!)).toMatchObject({ suppressedSinceLast: 2, requestId: 'r', error: 'Error: connect ENOENT' });
  });
});
