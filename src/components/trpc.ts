'use client';
// The dashboard's tRPC client (mutations from client components; pages read through getDashboardCaller).
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { DashboardRouter } from '@/server/api/dashboard-router';

export const trpc = createTRPCClient<DashboardRouter>({ links: [httpLink({ url: '/api/trpc' })] });

interface ProblemData {
  problem?: { detail?: string; errors?: { detail: string }[] } | null;
}

/** A readable message for a failed call: the problem detail and each field error. */
export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError) {
    const problem = (error.data as ProblemData | undefined)?.problem;
    const fields = problem?.errors?.map((field) => field.detail).filter((detail) => detail !== problem.detail) ?? [];
    return [problem?.detail ?? error.message, ...fields].join(' ');
  }
  return 'Something went wrong. Try again.';
}
