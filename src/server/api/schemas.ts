// Schemas shared by several resources.
import { z } from 'zod';

export const isoDateTime = z.iso.datetime({ offset: false }).meta({ description: 'ISO 8601 instant, UTC.', example: '2026-11-21T09:30:00.000Z' });

export const appIdParam = z.uuid('Must be a UUID.').meta({ description: 'Tracked app id (UUID).', example: '7d0f6f2e-3c1a-4a7b-9a51-2f1b3c4d5e6f' });
