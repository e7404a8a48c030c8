// MCP tasks (the tasks extension of the 2026-07-28 revision, io.modelcontextprotocol/tasks): what the wire says of a
// task. A client that declares the extension in a request's capabilities may be answered a task when its tool call
// outlives MCP_TASK_AFTER_MS (a storefront observed for the first time, live research, an app added); it then polls
// `tasks/get` for the result, which the call is charged for once, as it would have been answered. The tasks are kept in
// PostgreSQL (src/server/services/tasks/mcp-tasks.ts), so any web process answers the polls.
import { z } from 'zod';
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import { TASK_POLL_INTERVAL_MS, TASK_TTL_MS, type TaskView } from '@/server/services/tasks/mcp-tasks';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Whether a request's envelope (its `_meta` as the SDK lifts it) declares the tasks extension among its capabilities. */
export function declaresTasks(envelope: unknown): boolean {
  const capabilities = (envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
    | { extensions?: Record<string, unknown> }
    | undefined;
  return Boolean(capabilities?.extensions && TASKS_EXTENSION in capabilities.extensions);
}

/** The parameters of tasks/get, tasks/cancel and tasks/update: a task id (tasks/update's input responses are ignored). */
export const taskParams = z.looseObject({ taskId: z.string().min(1).max(100) });

/** What every task's wire form has: its id, status, times, how long it is kept and how often to poll. */
function taskFields(task: TaskView) {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage && { statusMessage: task.statusMessage }),
    createdAt: task.createdAt.toISOString(),
    lastUpdatedAt: task.updatedAt.toISOString(),
    ttlMs: TASK_TTL_MS,
    pollIntervalMs: TASK_POLL_INTERVAL_MS,
  };
}

/** A tool call's answer when it became a task: flat, `resultType: "task"`, no result yet. */
export function createTaskResult(task: TaskView) {
  return { resultType: 'task' as const, ...taskFields(task), content: [] };
}

/** tasks/get's answer: the task, with the tool's result once completed, or the error once failed. */
export function detailedTask(task: TaskView) {
  return {
    ...taskFields(task),
    ...(task.status === 'completed' && { result: task.result }),
    ...(task.status === 'failed' && { error: task.error }),
  };
}
