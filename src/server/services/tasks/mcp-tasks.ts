// The MCP server's tasks (the tasks extension, io.modelcontextprotocol/tasks): a tool call that outlives its time to
// answer goes on in the process that started it, and its outcome is stored here, where the client's `tasks/get` reads
// it from any web process. Only the credential that started a task reads or cancels it; another's id is unknown. A
// task whose process stopped before settling it (a restart, a crash) is failed once it has not moved for longer than
// any call can take, so no client polls for ever. A task may instead follow background work its call started (an
// export): it works until that work ends, however long, and the polls that read the work settle it.
import { db } from '@/server/db';

/** How long a task stays readable after it was created. */
export const TASK_TTL_MS = 3_600_000;
/** How often a client is asked to poll. */
export const TASK_POLL_INTERVAL_MS = 1_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A working task not moved for this long lost its process. */
const STALE_AFTER_MS = 10 * 60_000;

type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

export interface TaskView {
  id: string;
  tool: string;
  status: TaskStatus;
  /** Why it failed, or that it was cancelled; absent while it works or once completed. */
  statusMessage?: string;
  result: unknown;
  error: unknown;
  /** The background work it follows: the export its call started. */
  follows: TaskFollows | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}

export interface TaskFollows {
  exportId: string;
}

/** Whose a task is: the account, and the credential that started it (a key's id, or `user:<id>`). */
export interface TaskOwner {
  accountId: string;
  credential: string;
}

function viewOf(row: {
  id: string;
  tool: string;
  status: string;
  result: unknown;
  error: unknown;
  follows: unknown;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}): TaskView {
  const status = row.status as TaskStatus;
  const message =
    status === 'failed'
      ? ((row.error as { message?: string } | null)?.message ?? 'The call failed.')
      : status === 'cancelled'
        ? 'Cancelled by the client.'
        : undefined;
  return {
    ...row,
    status,
    follows: (row.follows as TaskFollows | null) ?? null,
    ...(message && { statusMessage: message }),
  };
}

/** A new task, working, stored before its client is told of it. */
export async function createTask(
  owner: TaskOwner,
  tool: string,
  now: Date,
  follows: TaskFollows | null = null,
): Promise<TaskView> {
  const row = await db.mcpTask.create({
    data: {
      ...owner,
      tool,
      ...(follows && { follows: { ...follows } }),
      status: 'working',
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + TASK_TTL_MS),
    },
  });
  return viewOf(row);
}

/** The task's outcome, unless it was settled already (a cancelled task stays cancelled). */
export async function settleTask(
  id: string,
  outcome: { status: 'completed'; result: unknown } | { status: 'failed'; error: { code: number; message: string } },
): Promise<void> {
  await db.mcpTask.updateMany({
    where: { id, status: 'working' },
    data: {
      status: outcome.status,
      ...(outcome.status === 'completed'
        ? { result: outcome.result as object }
        : { error: outcome.error as unknown as object }),
      updatedAt: new Date(),
    },
  });
}

/** The owner's task, or null: unknown, another credential's, or expired. A working one whose process stopped fails. */
export async function readTask(owner: TaskOwner, id: string, now: Date): Promise<TaskView | null> {
  if (!UUID.test(id)) return null;
  const row = await db.mcpTask.findFirst({ where: { id, ...owner, expiresAt: { gt: now } } });
  if (!row) return null;
  if (row.status === 'working' && !row.follows && now.getTime() - row.updatedAt.getTime() > STALE_AFTER_MS) {
    await settleTask(id, {
      status: 'failed',
      error: { code: -32603, message: 'The server running the call stopped before it finished. Call the tool again.' },
    });
    return readTask(owner, id, now);
  }
  return viewOf(row);
}

/** Cancels the owner's task if it still works; false when there is no such task. Idempotent on a settled one. */
export async function cancelTask(owner: TaskOwner, id: string, now: Date): Promise<boolean> {
  const task = await readTask(owner, id, now);
  if (!task) return false;
  await db.mcpTask.updateMany({ where: { id, status: 'working' }, data: { status: 'cancelled', updatedAt: now } });
  return true;
}

/** Tasks expired an hour ago and more: the hourly job's. */
export async function purgeExpiredTasks(now: Date = new Date()): Promise<number> {
  const { count } = await db.mcpTask.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - 3_600_000) } } });
  return count;
}
