// Settings → Webhooks: the inputs of its procedures.
import { z } from 'zod';

export const endpointId = z.object({ endpointId: z.uuid() });
