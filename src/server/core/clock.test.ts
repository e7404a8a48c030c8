import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentTime, epochMs, keepNativeDate, timeAt } from './clock';

const NATIVE_DATE = Symbol.for('aso.native-date');
const OriginalDate = Date;

/** A global Date replaced as Next.js replaces it: the same prototype, every construction and reading noticed. */
function wrapGlobalDate(): { readings: number } {
  const seen = { readings: 0 };
  const properties = Object.getOwnPropertyDescriptors(OriginalDate);
  properties.now.value = () => {
    seen.readings += 1;
    return OriginalDate.now();
  };
  globalThis.Date = Object.defineProperties(function Date(this: unknown, ...args: unknown[]) {
    seen.readings += 1;
    return Reflect.construct(OriginalDate, args, new.target ?? OriginalDate);
  }, properties) as unknown as DateConstructor;
  return seen;
}

afterEach(() => {
  // Fake timers first: they put back the Date they replaced.
  vi.useRealTimers();
  globalThis.Date = OriginalDate;
  delete (globalThis as Record<symbol, unknown>)[NATIVE_DATE];
});

describe('the serving path’s clock', () => {
  it('reads the global Date at each call when the server kept none, so that fake timers move it', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-31T23:59:59.000Z'));
    expect(currentTime().toISOString()).toBe('2026-03-31T23:59:59.000Z');
    expect(epochMs()).toBe(Date.parse('2026-03-31T23:59:59.000Z'));
    vi.setSystemTime(new Date('2026-04-01T00:00:00.000Z'));
    expect(currentTime().toISOString()).toBe('2026-04-01T00:00:00.000Z');
  });

  it('reads the Date kept before a framework wrapped it, and gives the same values as the wrapper', () => {
    keepNativeDate();
    const wrapper = wrapGlobalDate();
    const before = OriginalDate.now();
    const now = currentTime();
    const ms = epochMs();
    const at = timeAt('2026-11-27T10:00:00.000+01:00');
    expect(wrapper.readings).toBe(0);
    expect(now).toBeInstanceOf(Date);
    expect(now.getTime()).toBeGreaterThanOrEqual(before);
    expect(ms).toBeGreaterThanOrEqual(now.getTime());
    expect(at).toBeInstanceOf(Date);
    expect(at.toISOString()).toBe(new Date('2026-11-27T10:00:00.000+01:00').toISOString());
    expect(wrapper.readings).toBe(1);
  });

  it('keeps the first Date it was given: a second call after the wrapper does not replace it', () => {
    keepNativeDate();
    const wrapper = wrapGlobalDate();
    keepNativeDate();
    currentTime();
    epochMs();
    expect(wrapper.readings).toBe(0);
  });
});
