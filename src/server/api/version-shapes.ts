// Older dated versions' answers, derived from the newest: a procedure answers in the newest shape, and each version
// change says how to turn an answer of its version into one of the version before it (src/server/domain/
// api-versions.ts). An older version's answer validates against the newest schema too (each change only widens what
// the newest may answer), so one output schema serves every version, and an MCP tool's declared output holds for all.
import { API_VERSIONS, type ApiVersion } from '@/server/domain/api-versions';

type Downgrade = (output: unknown) => unknown;

/** For each version after the original: by procedure path, its answer turned into the previous version's. */
const DOWNGRADES: Partial<Record<ApiVersion, Record<string, Downgrade>>> = {
  '2026-11-29': {
    // rankDelta: null (an end that is not a rank) was 0.
    'keywords.list': (output) =>
      (output as { rankDelta: number | null }[]).map((keyword) => ({ ...keyword, rankDelta: keyword.rankDelta ?? 0 })),
    // yourRank: left out (not observed) was null.
    'keywords.research': (output) => {
      const research = output as { yourRank?: number | null };
      return { ...research, yourRank: research.yourRank ?? null };
    },
  },
};

/** The answer of the procedure at `path` as `version` shapes it, from the newest version's. */
export function shapeForVersion(path: string, output: unknown, version: ApiVersion): unknown {
  let shaped = output;
  for (let index = API_VERSIONS.length - 1; API_VERSIONS[index] !== version; index -= 1) {
    const downgrade = DOWNGRADES[API_VERSIONS[index]!]?.[path];
    if (downgrade) shaped = downgrade(shaped);
  }
  return shaped;
}

type Schemas = Record<string, { properties?: Record<string, unknown>; required?: string[] }>;

/** For each version after the original: its output schemas turned into the previous version's, by schema id. */
const SCHEMA_DOWNGRADES: Partial<Record<ApiVersion, (schemas: Schemas) => void>> = {
  '2026-11-29': (schemas) => {
    const keyword = schemas.KeywordListItem;
    if (keyword?.properties)
      keyword.properties.rankDelta = {
        type: 'integer',
        description:
          'Rank at the start of rankWindow minus rank now: positive = moved up. 0 when either end is unranked.',
      };
    const research = schemas.KeywordResearch;
    if (research?.properties) {
      research.properties.yourRank = {
        type: ['integer', 'null'],
        description: 'Where this app ranked for the term on its last day of data; null if not ranked or not observed.',
      };
      research.required = [...new Set([...(research.required ?? []), 'yourRank'])];
    }
  },
};

/**
 * The OpenAPI document's output schemas as `version` answers them, from the newest (in place): each later version's
 * change undone, newest first.
 */
export function shapeSchemasForVersion(schemas: Schemas, version: ApiVersion): void {
  for (let index = API_VERSIONS.length - 1; API_VERSIONS[index] !== version; index -= 1)
    SCHEMA_DOWNGRADES[API_VERSIONS[index]!]?.(schemas);
}
