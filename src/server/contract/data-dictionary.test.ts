import { describe, expect, it } from 'vitest';
import { dataDictionary } from './data-dictionary';

describe('the data dictionary', () => {
  const dictionary = dataDictionary('https://aso.example.com');
  const schema = (name: string) => dictionary.find((entry) => entry.name === name)!;

  it('lists the data answers’ schemas with the endpoints that answer them, and none of the settings’', () => {
    expect(schema('KeywordListItem').operations).toEqual(['GET /apps/{id}/keywords']);
    expect(dictionary.map((entry) => entry.name)).not.toContain('ApiKey');
    expect(dictionary.flatMap((entry) => entry.operations).some((operation) => operation.includes('/keys'))).toBe(
      false,
    );
  });

  it('says of every rank whether it was observed, nested figures included, each with a description', () => {
    const paths = (name: string) => schema(name).fields.map((field) => field.path);
    expect(paths('KeywordListItem')).toEqual(expect.arrayContaining(['rank', 'rankStatus', 'observedOn']));
    expect(paths('KeywordRankHistory')).toEqual(
      expect.arrayContaining(['points[].rank', 'points[].status', 'competitors[].points[].status']),
    );
    expect(paths('CategoryRankHistory')).toEqual(expect.arrayContaining(['points[].status']));
    expect(schema('KeywordResearch').fields.find((field) => field.path === 'yourRankStatus')!.type).toBe(
      '"ranked" | "unranked" | "not_observed"',
    );
    const undescribed = dictionary.flatMap((entry) =>
      entry.fields.filter((field) => /rank|rating|volume|difficulty/i.test(field.path) && !field.description),
    );
    expect(undescribed.map((field) => field.path)).toEqual([]);
  });
});
