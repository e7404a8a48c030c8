// The serving path's clock. Next.js replaces the global Date when it loads (node_modules/next/dist/server/
// node-environment-extensions/date.js): its wrapper asks two AsyncLocalStorages, at every reading of the clock and at
// every Date it constructs, whether a prerender is reading it, so that a cached component does not bake the time in.
// The public API, the MCP server and their log lines never run inside a prerender, and they read the clock several
// times a request, so they read it from the original constructor, which the app's server keeps before it loads
// Next.js (keepNativeDate, src/server/main.ts). Anywhere else (the tests, whose fake timers replace Date; the worker;
// the Next.js side of the app) the global Date is read at each call, as before.
const NATIVE_DATE = Symbol.for('aso.native-date');

type ClockHolder = { [NATIVE_DATE]?: DateConstructor };

/** Called by the app's server before it loads Next.js. */
export function keepNativeDate(): void {
  (globalThis as ClockHolder)[NATIVE_DATE] ??= Date;
}

function dateConstructor(): DateConstructor {
  return (globalThis as ClockHolder)[NATIVE_DATE] ?? Date;
}

/** The current time, as `new Date()`. */
export function currentTime(): Date {
  return new (dateConstructor())();
}

/** Milliseconds since the epoch, as `Date.now()`. */
export function epochMs(): number {
  return dateConstructor().now();
}

/** The instant an ISO 8601 text or epoch milliseconds give, as `new Date(value)`. */
export function timeAt(value: string | number): Date {
  return new (dateConstructor())(value);
}
