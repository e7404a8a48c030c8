// The rank chart's state as the URL holds it (`compare`, `vs`, `range`, `from`): read by the overview page on the server
// and kept by the keyword workspace in the browser.
const RANGES = ['30', '90', '365', 'custom'] as const;
export type Range = (typeof RANGES)[number];
/** Lines on the chart at most: keywords, or the app and its first competitors. */
export const MAX_COMPARED = 5;

export interface ChartState {
  compare: string[];
  /** What the lines are: the chosen keywords' ranks, or the app's and its competitors' for one keyword. */
  vs: 'keywords' | 'competitors';
  range: Range;
  /** The first day of a custom range. */
  from: string | null;
}

/** Days of history a range asks for, ending with the last day of data (at most 365, as the API allows). */
export function daysOf(state: ChartState, dataThrough: string | null): number {
  if (state.range !== 'custom') return Number(state.range);
  if (!state.from || !dataThrough) return 90;
  const days = Math.round((Date.parse(dataThrough) - Date.parse(state.from)) / 86_400_000) + 1;
  return Math.min(365, Math.max(1, days));
}

/**
 * The state from a page's query: known keywords only, at most five (one against competitors); the first keyword when
 * none is named.
 */
export function chartStateOf(query: Record<string, string | string[] | undefined>, keywordIds: string[]): ChartState {
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
  const named = (text('compare') ?? text('keyword') ?? '').split(',').filter((id) => keywordIds.includes(id));
  const vs = text('vs') === 'competitors' ? 'competitors' : 'keywords';
  const compare = [...new Set(named)].slice(0, vs === 'competitors' ? 1 : MAX_COMPARED);
  const range = (RANGES as readonly string[]).includes(text('range') ?? '') ? (text('range') as Range) : '90';
  const from = /^\d{4}-\d{2}-\d{2}$/.test(text('from') ?? '') ? text('from')! : null;
  // An explicit empty `compare` keeps the chart empty; no parameter at all shows the first keyword.
  return {
    compare: compare.length || text('compare') !== undefined ? compare : keywordIds.slice(0, 1),
    vs,
    range,
    from,
  };
}
