// Issue 66: long work as tasks (the 2026-07-28 revision's tasks extension). A client that declares the extension gets a
// task for a tool call that outlives MCP_TASK_AFTER_MS, polls tasks/get for the result and is charged once; one that
// does not gets the answer as before. Tasks are the credential's that started them, kept where every process reads them.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '@/server/core/config';
import { db } from '@/server/db';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { runNextExport } from '@/server/services/exports/export-worker';
import { fileOfLink } from '@/server/services/exports/exports';
import { purgeExpiredTasks } from '@/server/services/tasks/mcp-tasks';
import { serveBothChannels } from '../../../test/channels';
import { makeAsoApp } from '../../../test/aso-fixture';
import { MCP_PATH } from './mcp-endpoint';
import { TASKS_EXTENSION } from './mcp-tasks';

let server: Server;
let origin: string;
let fixture: Awaited<ReturnType<typeof makeAsoApp>>;
let secret: string;

beforeAll(async () => {
  // Every call of a client that takes tasks becomes one: the flow, whatever this machine's speed.
  process.env.MCP_TASK_AFTER_MS = '0';
  resetConfig();
  ({ server, origin } = await serveBothChannels('http://mcp.test'));
  fixture = await makeAsoApp({ storeId: '700000068', terms: ['meditation'] });
  ({ secret } = await createApiKey(fixture.owner, { name: 'tasks', scope: 'read-only' }));
});

afterAll(async () => {
  delete process.env.MCP_TASK_AFTER_MS;
  resetConfig();
  await new Promise((resolve) => server.close(resolve));
});

/** One request of the 2026-07-28 revision: its envelope in `_meta`, its method and name in headers. */
async function modern(
  method: string,
  params: Record<string, unknown>,
  options: { tasks?: boolean; name?: string; key?: string } = {},
): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const capabilities = options.tasks === false ? {} : { extensions: { [TASKS_EXTENSION]: {} } };
  const response = await fetch(`${origin}${MCP_PATH}?toolsets=all`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${options.key ?? secret}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': method,
      ...(options.name && { 'Mcp-Name': options.name }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': capabilities,
          'io.modelcontextprotocol/clientInfo': { name: 'tasks test', version: '1.0.0' },
        },
      },
    }),
  });
  const text = await response.text();
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  return JSON.parse(data ? data.slice(6) : text);
}

async function creditsUsed(): Promise<number> {
  const rows = await db.creditUsage.aggregate({ where: { accountId: fixture.owner.accountId }, _sum: { used: true } });
  return rows._sum.used ?? 0;
}

async function settled(taskId: string, key?: string): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const polled = await modern('tasks/get', { taskId }, { name: taskId, key });
    if (polled.result?.status !== 'working') return polled.result!;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${taskId} never settled`);
}

describe('tasks', () => {
  it('advertises the extension in server/discover', async () => {
    const discovered = await modern('server/discover', {});
    expect(discovered.result).toMatchObject({ capabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
  });

  it('answers a call that outlives its time as a task, whose result is the call’s, charged once', async () => {
    const before = await creditsUsed();
    const call = { name: 'apps_get', arguments: { id: fixture.app.id } };
    const created = (await modern('tools/call', call, { name: 'apps_get' })).result!;
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: expect.any(Number),
      pollIntervalMs: expect.any(Number),
    });
    expect(created).not.toHaveProperty('result');
    const done = await settled(String(created.taskId));
    expect(done).toMatchObject({ taskId: created.taskId, status: 'completed' });
    const result = done.result as { structuredContent: { id: string }; isError?: boolean };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.id).toBe(fixture.app.id);
    expect(await creditsUsed()).toBe(before + 1);
    // Polled again: the same, charged nothing more.
    expect((await settled(String(created.taskId))).result).toEqual(done.result);
    expect(await creditsUsed()).toBe(before + 1);
  });

  it('keeps a refused call a completed task carrying the refusal, charged nothing', async () => {
    const before = await creditsUsed();
    const created = (
      await modern('tools/call', { name: 'apps_get', arguments: { id: crypto.randomUUID() } }, { name: 'apps_get' })
    ).result!;
    const done = await settled(String(created.taskId));
    expect(done.status).toBe('completed');
    expect((done.result as { isError: boolean }).isError).toBe(true);
    expect(await creditsUsed()).toBe(before);
  });

  it('answers as before a client that does not take tasks', async () => {
    const answered = await modern(
      'tools/call',
      { name: 'apps_get', arguments: { id: fixture.app.id } },
      { name: 'apps_get', tasks: false },
    );
    expect(answered.result).toMatchObject({ resultType: 'complete', structuredContent: { id: fixture.app.id } });
    expect(answered.result).not.toHaveProperty('taskId');
  });

  it('keeps a task to its credential, gates tasks/* on the extension, and acknowledges a cancel', async () => {
    const created = (
      await modern('tools/call', { name: 'apps_get', arguments: { id: fixture.app.id } }, { name: 'apps_get' })
    ).result!;
    const taskId = String(created.taskId);
    const gated = await modern('tasks/get', { taskId }, { name: taskId, tasks: false });
    expect(gated.error?.code).toBe(-32021);
    const { secret: other } = await createApiKey(fixture.owner, { name: 'another', scope: 'read-only' });
    expect((await modern('tasks/get', { taskId }, { name: taskId, key: other })).error?.code).toBe(-32602);
    expect((await modern('tasks/get', { taskId: 'nothing' }, { name: 'nothing' })).error?.code).toBe(-32602);
    await settled(taskId);
    // A settled task's cancel is the same empty acknowledgement, and it stays completed.
    const ack = await modern('tasks/cancel', { taskId }, { name: taskId });
    expect(ack.result).toEqual(expect.objectContaining({ resultType: 'complete' }));
    expect(ack.result).not.toHaveProperty('status');
    expect((await settled(taskId)).status).toBe('completed');
  });

  it('fails a task whose process stopped before it settled, so that no client polls for ever', async () => {
    const created = (
      await modern('tools/call', { name: 'apps_get', arguments: { id: fixture.app.id } }, { name: 'apps_get' })
    ).result!;
    const taskId = String(created.taskId);
    await settled(taskId);
    // As a task left working by a process that died an hour ago.
    await db.mcpTask.update({
      where: { id: taskId },
      data: { status: 'working', result: undefined, updatedAt: new Date(Date.now() - 3_000_000) },
    });
    const failed = await settled(taskId);
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(failed).not.toHaveProperty('result');
  });

  it('deletes a task an hour past its expiry, and none before', async () => {
    const created = (
      await modern('tools/call', { name: 'apps_get', arguments: { id: fixture.app.id } }, { name: 'apps_get' })
    ).result!;
    const taskId = String(created.taskId);
    await settled(taskId);
    expect(await purgeExpiredTasks()).toBe(0);
    await db.mcpTask.update({ where: { id: taskId }, data: { expiresAt: new Date(Date.now() - 2 * 3_600_000) } });
    expect((await modern('tasks/get', { taskId }, { name: taskId })).error?.code).toBe(-32602);
    expect(await purgeExpiredTasks()).toBe(1);
    expect(await db.mcpTask.findUnique({ where: { id: taskId } })).toBeNull();
  });

  it('runs an export as a task: working while the worker writes it, then its files linked as resources; cancelling the task cancels the export', async () => {
    const call = {
      name: 'exports_create',
      arguments: { datasets: ['keyword_ranks'], from: '2026-06-01', to: '2026-06-30', format: 'csv' },
    };
    const created = (await modern('tools/call', call, { name: 'exports_create' })).result!;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = String(created.taskId);
    // Queued, not yet written: the task works, however long the export takes.
    expect((await modern('tasks/get', { taskId }, { name: taskId })).result).toMatchObject({ status: 'working' });
    while (await runNextExport(new Date(), () => false, fixture.owner.accountId)) {
      // the account's exports, written here
    }
    const done = await settled(taskId);
    expect(done).toMatchObject({ status: 'completed' });
    const result = done.result as {
      structuredContent: { id: string; state: string; files: { id: string; url: string; bytes: number }[] };
      content: { type: string; uri?: string; name?: string; mimeType?: string; size?: number }[];
    };
    expect(result.structuredContent.state).toBe('completed');
    const [file] = result.structuredContent.files;
    const links = result.content.filter((item) => item.type === 'resource_link');
    expect(links).toEqual([
      expect.objectContaining({ uri: expect.stringMatching(new RegExp(`/exports/${result.structuredContent.id}$`)) }),
      expect.objectContaining({
        uri: file!.url,
        name: 'keyword_ranks.csv',
        mimeType: expect.stringMatching(/^text\/csv/),
        size: file!.bytes,
      }),
    ]);
    const link = new URL(file!.url);
    expect(
      await fileOfLink(file!.id, link.searchParams.get('expires'), link.searchParams.get('signature'), new Date()),
    ).toMatchObject({ ok: true });

    // Another, cancelled through its task before any worker took it: the export is cancelled too.
    const second = (await modern('tools/call', call, { name: 'exports_create' })).result!;
    const secondId = String(second.taskId);
    expect((await modern('tasks/cancel', { taskId: secondId }, { name: secondId })).error).toBeUndefined();
    expect(await settled(secondId)).toMatchObject({ status: 'cancelled' });
    const task = await db.mcpTask.findUniqueOrThrow({ where: { id: secondId } });
    const exported = await db.export.findUniqueOrThrow({
      where: { id: (task.follows as { exportId: string }).exportId },
    });
    expect(exported.state).toBe('cancelled');
  });
});
