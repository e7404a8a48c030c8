import { afterEach, describe, expect, it, vi } from 'vitest';
import { logErrorThrottled, logInfo } from './log';
import { withRequest } from './request-context';

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
    const fail = () =>
      logErrorThrottled('test outage', 5_000, 'database unavailable', new Error('connect ENOENT'), { requestId: 'r' });
    fail();
    fail();
    fail();
    logErrorThrottled('another key', 5_000, 'other', new Error('x'));
    vi.setSystemTime(new Date('2026-11-22T00:00:05Z'));
    fail();
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual([
      'database unavailable',
      'other',
      'database unavailable',
    ]);
    expect(JSON.parse(lines[0]!).suppressedSinceLast).toBeUndefined();
    expect(JSON.parse(lines[2]!)).toMatchObject({
      level: 50,
      suppressedSinceLast: 2,
      requestId: 'r',
      err: { type: 'Error', message: 'connect ENOENT' },
    });
  });
});

describe('a line written while a request is served', () => {
  it('carries that request’s id, and no id outside a request', () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    withRequest({ requestId: '5f0c2a7e-3b1d-4c8e-9a6f-2d4b7e1c0a93' }, () =>
      logInfo('plan changed', { accountId: 'a' }),
    );
    logInfo('refresh finished');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'plan changed',
        accountId: 'a',
        requestId: '5f0c2a7e-3b1d-4c8e-9a6f-2d4b7e1c0a93',
      }),
      expect.not.objectContaining({ requestId: expect.anything() }),
    ]);
  });
});
