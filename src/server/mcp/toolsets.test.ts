// A request's choice of toolsets and mode: by header or query, `all` and `default` beside others, a name that is no
// toolset refused with its place.
import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/errors/app-error';
import { choiceOffers, DEFAULT_TOOLSETS, TOOLSET_NAMES, TOOLSETS, toolChoiceOf } from './toolsets';

const none = { toolsets: null, readOnly: null };
const query = (text: string) => new URLSearchParams(text);

describe('toolChoiceOf', () => {
  it('offers the default toolsets, reads and writes, when the request names none', () => {
    expect(toolChoiceOf(none, query(''))).toEqual({ toolsets: DEFAULT_TOOLSETS, readOnly: false });
    expect(toolChoiceOf({ toolsets: ' , ', readOnly: '' }, query(''))).toEqual({
      toolsets: DEFAULT_TOOLSETS,
      readOnly: false,
    });
  });

  it('takes the header ahead of the query, `all` and `default` beside others, in any case and spacing', () => {
    expect(toolChoiceOf({ toolsets: 'Reviews, usage', readOnly: null }, query('toolsets=all')).toolsets).toEqual([
      'reviews',
      'usage',
    ]);
    expect(toolChoiceOf(none, query('toolsets=all')).toolsets).toEqual(TOOLSET_NAMES);
    expect(toolChoiceOf(none, query('toolsets=default,reviews')).toolsets).toEqual(
      TOOLSET_NAMES.filter((name) => DEFAULT_TOOLSETS.includes(name) || name === 'reviews'),
    );
  });

  it('is read-only unless the value is empty or says no', () => {
    for (const value of ['true', '1', 'yes', 'on', 'anything'])
      expect(toolChoiceOf({ toolsets: null, readOnly: value }, query('')).readOnly, value).toBe(true);
    for (const value of ['', 'false', 'F', ' no ', 'n', '0', 'off'])
      expect(toolChoiceOf({ toolsets: null, readOnly: value }, query('')).readOnly, value).toBe(false);
    expect(toolChoiceOf(none, query('readonly=true')).readOnly).toBe(true);
  });

  it('refuses a name that is no toolset, naming those that are and where it was sent', () => {
    const refusal = (() => {
      try {
        toolChoiceOf({ toolsets: 'apps,reveiws', readOnly: null }, query(''));
      } catch (error) {
        return error as AppError;
      }
    })();
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal!.appCode).toBe('VALIDATION_ERROR');
    expect(refusal!.message).toContain('"reveiws" is none');
    expect(refusal!.message).toContain(TOOLSET_NAMES.join(', '));
    expect(() => toolChoiceOf(none, query('toolsets=nope'))).toThrow(/toolsets names toolsets/);
  });
});

describe('choiceOffers', () => {
  it('offers a tool of a chosen toolset, and a write only when not read-only', () => {
    const keywords = { toolsets: ['keywords'] as const, readOnly: false };
    expect(choiceOffers(keywords, { name: 'keywords_list', readOnly: true })).toBe(true);
    expect(choiceOffers(keywords, { name: 'keywords_add', readOnly: false })).toBe(true);
    expect(choiceOffers({ ...keywords, readOnly: true }, { name: 'keywords_add', readOnly: false })).toBe(false);
    expect(choiceOffers(keywords, { name: 'reviews_list', readOnly: true })).toBe(false);
    expect(choiceOffers(keywords, { name: 'no_such_tool', readOnly: true })).toBe(false);
  });

  it('puts every tool in one toolset only', () => {
    const all = Object.values(TOOLSETS).flatMap((toolset) => toolset.tools);
    expect(new Set(all).size).toBe(all.length);
  });
});
