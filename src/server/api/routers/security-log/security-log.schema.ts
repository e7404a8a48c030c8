// Settings → Security log: which entries a page or an export holds.
import { z } from 'zod';
import {
  SECURITY_EVENT_KINDS,
  type SecurityEventsFilter,
  type SecurityEventsQuery,
} from '@/server/services/security-log/security-log';

export const securityEventsFilterInput = z.object({
  kinds: z.array(z.enum(SECURITY_EVENT_KINDS)).max(SECURITY_EVENT_KINDS.length).optional(),
  from: z.iso.date('Give the first day as YYYY-MM-DD.').optional(),
  to: z.iso.date('Give the last day as YYYY-MM-DD.').optional(),
}) satisfies z.ZodType<SecurityEventsFilter>;

export const listSecurityEventsInput = securityEventsFilterInput.extend({
  page: z.int().min(1).max(100_000).default(1),
  pageSize: z.int().min(1).max(200).default(50),
}) satisfies z.ZodType<SecurityEventsQuery>;
