import { z } from 'zod';
import { isoDate, isoDateTime } from '@/server/api/schemas';
import { countrySchema } from '@/server/domain/countries';
import { DATASET_DEFINITIONS, DATASETS } from '@/server/services/exports/datasets';
import {
  EXPORT_FILE_DAYS,
  EXPORT_STATES,
  type ExportView,
  LINK_MINUTES,
  MAX_EXPORT_DAYS,
  ROWS_PER_CREDIT,
} from '@/server/services/exports/exports';
import { EXPORT_FORMATS } from '@/server/services/exports/file-writers';

const datasetList = DATASETS.map((dataset) => `\`${dataset}\`: ${DATASET_DEFINITIONS[dataset].description}`).join(' ');

export const createExportInput = z.strictObject({
  datasets: z
    .array(z.enum(DATASETS, `Must be one of: ${DATASETS.join(', ')}.`))
    .min(1, 'Name at least one dataset.')
    .max(DATASETS.length)
    .meta({ description: `What to export, a file each. ${datasetList}`, example: ['keyword_ranks'] }),
  appIds: z.array(z.uuid('Must be a UUID.')).max(1_000).optional().meta({
    description: 'The apps; left out: every app the account tracks (for a key restricted to chosen apps, those).',
  }),
  storefronts: z
    .array(countrySchema)
    .max(200)
    .optional()
    .meta({ description: 'The storefronts; left out: every storefront each app is tracked in.', example: ['US'] }),
  from: isoDate.meta({ description: 'The first day (UTC), included.', example: '2025-12-01' }),
  to: isoDate.meta({
    description: `The last day (UTC), included; at most ${MAX_EXPORT_DAYS} days after \`from\`, never after today.`,
    example: '2026-11-28',
  }),
  format: z.enum(EXPORT_FORMATS, `Must be one of: ${EXPORT_FORMATS.join(', ')}.`).meta({
    description:
      '`parquet` (a typed schema per dataset, the columns’ meanings in its key-value metadata `aso.columns`), `csv` (RFC 4180: a header line, CRLF line ends) or `jsonl` (one JSON object a line).',
    example: 'parquet',
  }),
});

export const exportIdInput = z.object({
  exportId: z
    .uuid('Must be a UUID.')
    .meta({ description: 'The export, as asking for it answered.', example: '6a1b3c5d-7e9f-4a1b-8c3d-5e7f9a1b3c5d' }),
});

const exportFile = z.object({
  id: z.uuid(),
  dataset: z.enum(DATASETS),
  rows: z.int().min(0),
  bytes: z.int().min(0),
  sha256: z.string().meta({ description: 'Hex SHA-256 of the file: check the download against it.' }),
  url: z.url().meta({
    description: `Where it downloads, with no credential: a signed link that works for at least ${LINK_MINUTES} minutes, until \`expiresAt\` (403 after; read the export again for a fresh one).`,
  }),
  expiresAt: isoDateTime.meta({ description: 'When the link stops working.' }),
});

export const exportOutput = z
  .object({
    id: z.uuid(),
    state: z.enum(EXPORT_STATES).meta({
      description:
        '`queued`, `running`, `completed` (its files listed), `failed` (nothing charged) or `cancelled` (nothing charged).',
    }),
    format: z.enum(EXPORT_FORMATS),
    datasets: z.array(z.enum(DATASETS)),
    appIds: z.array(z.uuid()).nullable().meta({ description: 'As asked; null: every tracked app.' }),
    storefronts: z.array(z.string().length(2)).nullable(),
    from: isoDate,
    to: isoDate,
    progress: z.object({
      rowsDone: z.int().min(0),
      rowsEstimated: z
        .int()
        .min(0)
        .meta({ description: 'The rows counted as it was asked for (what it was quoted by).' }),
      percent: z.int().min(0).max(100),
    }),
    credits: z
      .int()
      .min(0)
      .meta({
        description: `What it costs: a credit a ${ROWS_PER_CREDIT.toLocaleString('en-US')} rows (at least one), charged as it is asked for and given back if it fails or is cancelled; 0 in test mode.`,
      }),
    files: z.array(exportFile).meta({ description: 'Once `completed`: a file per dataset.' }),
    error: z.string().nullable(),
    createdAt: isoDateTime,
    startedAt: isoDateTime.nullable(),
    completedAt: isoDateTime.nullable(),
    expiresAt: isoDateTime.meta({
      description: `When its files are removed: ${EXPORT_FILE_DAYS} days after it was asked for.`,
    }),
  })
  .meta({ id: 'Export' });

export function toExportOutput(view: ExportView): z.input<typeof exportOutput> {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    ...view,
    files: view.files.map((file) => ({ ...file, expiresAt: file.expiresAt.toISOString() })),
    createdAt: view.createdAt.toISOString(),
    startedAt: iso(view.startedAt),
    completedAt: iso(view.completedAt),
    expiresAt: view.expiresAt.toISOString(),
  };
}
