// The bench's baseline: with BENCH_BODY_DIR, the bare route repeats a stored answer's status, headers and body.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GET } from './route';

afterEach(() => vi.unstubAllEnvs());

describe('GET /api/ping', () => {
  it('answers {"ok":true} and ignores ?body= without BENCH_BODY_DIR', async () => {
    vi.stubEnv('BENCH_BODY_DIR', '');
    const response = await GET(new Request('http://app.test/api/ping?body=target-0'));
    expect([response.status, await response.text()]).toEqual([200, '{"ok":true}']);
  });

  it('repeats the stored answer, status and headers included, with BENCH_BODY_DIR', async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'ping-'));
    const body = '{"type":"https://app.test/docs/problems/unauthorized","status":401}';
    await writeFile(path.join(directory, 'target-1.json'), body);
    const headers = [
      ['content-type', 'application/problem+json'],
      ['www-authenticate', 'Bearer realm="public-api"'],
      ['x-request-id', '768c5bd3-dc9a-43be-ad70-61eca279327a'],
    ];
    await writeFile(path.join(directory, 'target-1.head.json'), JSON.stringify({ status: 401, headers }));
    vi.stubEnv('BENCH_BODY_DIR', directory);
    for (let call = 0; call < 2; call++) {
      const response = await GET(new Request('http://app.test/api/ping?body=target-1'));
      expect(response.status).toBe(401);
      expect([...response.headers]).toEqual(headers);
      expect(await response.text()).toBe(body);
    }
    // A name outside [a-z0-9-] is not read from the directory.
    expect(await (await GET(new Request('http://app.test/api/ping?body=../etc'))).text()).toBe('{"ok":true}');
  });
});
