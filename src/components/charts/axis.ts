// What every chart's axes share: labels a reader takes in at a glance (month names, round rank steps), and widths that
// never cut a label.

/** The width of a value axis whose longest label is among `labels`, so that no label is cut (12 px digits). */
export function axisWidth(labels: string[]): number {
  const longest = labels.reduce((widest, label) => Math.max(widest, label.length), 1);
  return Math.max(40, longest * 8 + 12);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A day (`YYYY-MM-DD`) as a date axis labels it: "Nov 28"; the year too on the 1st of January ("Jan 1 2027"). */
export function dayTick(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  if (!year || !month || !day) return date;
  return `${MONTHS[month - 1]} ${day}${month === 1 && day === 1 ? ` ${year}` : ''}`;
}

/** Round steps between rank ticks, the smallest that keeps them to six at most. */
const RANK_STEPS = [1, 2, 5, 10, 20, 25, 50, 100];

/**
 * The ticks of a rank axis (1 at the top) whose worst rank shown is `worst`: 1, then round steps (1, 10, 20, 30…),
 * up to the first that reaches `worst`, which is also where the axis ends.
 */
export function rankTicks(worst: number): number[] {
  const last = Math.max(1, Math.ceil(worst));
  const step = RANK_STEPS.find((candidate) => Math.ceil(last / candidate) <= 5) ?? Math.ceil(last / 500) * 100;
  const ticks = [1];
  for (let tick = step; tick < last + step; tick += step) if (tick > 1) ticks.push(tick);
  return ticks;
}
