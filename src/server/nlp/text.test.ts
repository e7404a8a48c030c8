import { describe, expect, it } from 'vitest';
import { analyse, analyseReview } from './text';

const sentimentOf = (text: string) => analyse(text).sentiment;

describe('review analysis', () => {
  it('scores sentiment with the lexicon', () => {
    expect(sentimentOf('Absolutely love it. Wonderful, beautiful and reliable.')).toBeGreaterThan(0.2);
    expect(sentimentOf('Terrible. Useless and a waste of money.')).toBeLessThan(-0.2);
    expect(Math.abs(sentimentOf('The app has a settings screen.'))).toBeLessThan(0.05);
  });

  it('finds bug reports', () => {
    expect(analyseReview('Broken', 'The app crashes every time I open the sleep timer.').bugReport).toBe(true);
    expect(analyseReview('Hmm', 'Bank sync stopped working after the update.').bugReport).toBe(true);
    expect(analyseReview('Hmm', 'I was charged twice.').bugReport).toBe(true);
    expect(analyseReview('Love it', 'Beautiful design and very easy to use.').bugReport).toBe(false);
  });

  it('extracts feature requests', () => {
    expect(
      analyseReview('Nice', 'Really helpful. Please add an Apple Watch app and it would be perfect.').featureRequests,
    ).toEqual(['apple watch app']);
    expect(analyseReview('Good', 'Great experience, but I wish there was dark mode.').featureRequests).toEqual([
      'dark mode',
    ]);
    expect(analyseReview('Good', 'Would be nice to have iCloud sync.').featureRequests).toEqual(['icloud sync']);
    expect(analyseReview('Fine', 'It would be great if you could add offline mode.').featureRequests).toEqual([
      'offline mode',
    ]);
    expect(analyseReview('Great', 'No complaints at all.').featureRequests).toEqual([]);
  });

  it('names a topic by the word reviewers write, not a Latin singular', () => {
    expect(analyse('My data is gone and the media library is empty.').nouns).toEqual(
      expect.arrayContaining(['data', 'media']),
    );
    expect(analyse('My data is gone and the media library is empty.').nouns).not.toContain('datum');
  });

  it('lists the nouns a review is about, without generic words', () => {
    const { topics } = analyseReview(
      'Disappointed',
      'Since the last update the sleep stories are slow and the subscription price went up.',
    );
    expect(topics).toEqual(expect.arrayContaining(['story', 'subscription']));
    expect(topics).not.toContain('update');
  });

  it('scores a review as its whole text scores', () => {
    const analysis = analyseReview('Broken', 'Lost all my data after the update. The timer shows an error.');
    expect(analysis).toMatchObject({
      bugReport: true,
      sentiment: sentimentOf('Broken. Lost all my data after the update. The timer shows an error.'),
    });
    expect(analysis.sentiment).toBeLessThan(0);
  });
});
