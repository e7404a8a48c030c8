// Settings read from the environment.

/**
 * An amount (megabytes, seconds…) that 0 turns off: `fallback` when the variable is unset or blank, its number when
 * positive, else 0 (0, negative or not a number: off rather than a guess).
 */
export function amountSetting(name: string, fallback: number): number {
  const setting = process.env[name]?.trim();
  const amount = setting ? Number(setting) : fallback;
  return Number.isFinite(amount) && amount > 0 ? amount : 0;
}

/** Whether the app's server calls the handlers of DIRECT_ROUTES without Next.js's routing in production (DIRECT_ROUTES, default true). */
export function directRoutesSetting(): boolean {
  return process.env.DIRECT_ROUTES?.trim() !== 'false';
}
