import { describe, expect, it } from 'vitest';
import { discordMessage, escapeSlack, slackMessage, summarize, type EventEnvelope } from './chat-formats';

const event = (type: string, data: Record<string, unknown>): EventEnvelope => ({
  id: 'evt_123',
  type,
  createdAt: '2026-11-21T09:00:00.000Z',
  data,
});

describe('chat messages', () => {
  it('describe each kind of event in one line', () => {
    expect(
      summarize(
        event('keyword.rank_changed', {
          term: 'sleep sounds',
          country: 'US',
          previousRank: 12,
          rank: 5,
          appName: 'Breathe',
        }),
      ),
    ).toBe('“sleep sounds” (US) for Breathe moved up from #12 to #5.');
    expect(summarize(event('keyword.rank_changed', { term: 'x', country: 'GB', previousRank: null, rank: 150 }))).toBe(
      '“x” (GB) entered the top 200 at #150.',
    );
    expect(summarize(event('keyword.rank_changed', { term: 'x', country: 'GB', previousRank: 180, rank: null }))).toBe(
      '“x” (GB) left the top 200 (was #180).',
    );
    expect(
      summarize(
        event('usage.threshold_reached', {
          percent: 80,
          used: 1200,
          limit: 1500,
          resetsAt: '2026-12-01T00:00:00.000Z',
        }),
      ),
    ).toBe('80 % of this month’s API credits used (1,200 of 1,500); resets 2026-12-01.');
    expect(summarize(event('review.created', { rating: 1, country: 'US' }))).toBe('New 1★ review in US.');
    expect(
      summarize(event('app.metadata_changed', { country: 'US', fields: ['version', 'whatsNew'], version: '4.9.2' })),
    ).toBe('Store listing changed in US: version, whatsNew (version 4.9.2).');
  });

  it('escape & < > for Slack, in text and blocks', () => {
    expect(escapeSlack('a & b <c> d')).toBe('a &amp; b &lt;c&gt; d');
    const message = slackMessage(event('keyword.added', { term: 'tom & jerry <script>', country: 'US' }));
    expect(message.text).toBe('Now tracking “tom &amp; jerry &lt;script&gt;” (US).');
    expect(message.blocks[0]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: message.text } });
    expect(JSON.stringify(message)).not.toMatch(/<script>/);
  });

  it('give Discord content and an embed, with mentions disabled', () => {
    const message = discordMessage(event('keyword.added', { term: '@everyone', country: 'US' }));
    expect(message.content).toBe('Now tracking “@everyone” (US).');
    expect(message.embeds).toEqual([
      {
        title: 'keyword.added',
        description: message.content,
        timestamp: '2026-11-21T09:00:00.000Z',
        footer: { text: 'evt_123' },
      },
    ]);
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });
});
