// What a team-chat destination receives instead of the signed envelope: a readable message per event kind.
// Slack: `text` + `blocks`, with & < > escaped as Slack requires. Discord: `content` + `embeds`, mentions disabled.

export interface EventEnvelope {
  id: string;
  type: string;
  createdAt: string;
  /** The request that caused the event (its X-Request-Id); null when none did. Absent from deliveries made before it was. */
  requestId?: string | null;
  /** false: an event of a test sandbox, delivered to its test endpoints only. Absent from deliveries made before it was. */
  livemode?: boolean;
  /** The dated API version its data is shaped by: the endpoint's. Absent from deliveries made before it was. */
  apiVersion?: string;
  data: Record<string, unknown>;
}

const str = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const quoted = (value: unknown) => `“${str(value)}”`;
const app = (data: Record<string, unknown>) => (data.appName ? ` for ${str(data.appName)}` : '');

/** One plain-text line describing the event. */
export function summarize(event: EventEnvelope): string {
  const data = event.data;
  switch (event.type) {
    case 'keyword.rank_changed': {
      const where = `${quoted(data.term)} (${str(data.country)})${app(data)}`;
      if (data.previousRank === null) return `${where} entered the top 200 at #${str(data.rank)}.`;
      if (data.rank === null) return `${where} left the top 200 (was #${str(data.previousRank)}).`;
      const direction = Number(data.rank) < Number(data.previousRank) ? 'up' : 'down';
      return `${where} moved ${direction} from #${str(data.previousRank)} to #${str(data.rank)}.`;
    }
    case 'keyword.added':
      return `Now tracking ${quoted(data.term)} (${str(data.country)})${app(data)}.`;
    case 'competitor.added':
      return `New competitor${app(data)}: ${str(data.name) || str(data.storeId)} (${data.store === 'google_play' ? 'Google Play' : 'App Store'}).`;
    case 'app.metadata_changed':
      return `Store listing changed${app(data)} in ${str(data.country)}: ${(data.fields as string[] | undefined)?.join(', ') ?? 'fields'} (version ${str(data.version)}).`;
    case 'review.created':
      return `New ${str(data.rating)}★ review${app(data)} in ${str(data.country)}.`;
    case 'usage.threshold_reached':
      return `${str(data.percent)} % of this month’s API credits used (${Number(data.used).toLocaleString('en-US')} of ${Number(data.limit).toLocaleString('en-US')}); resets ${str(data.resetsAt).slice(0, 10)}.`;
    case 'api_key.created':
      return `API key ${quoted(data.name)} (${str(data.displayPrefix)}…) was created.`;
    case 'api_key.revoked':
      return `API key ${quoted(data.name)} (${str(data.displayPrefix)}…) was revoked.`;
    case 'api_key.expiring':
      return `API key ${quoted(data.name)} (${str(data.displayPrefix)}…) expires at ${str(data.expiresAt)}: roll it before then.`;
    case 'plan.changed':
      return `The account moved from ${str(data.from)} to ${str(data.to)}${data.reason === 'trial_ended' ? ' (its trial ended)' : ''}.`;
    case 'webhook.test':
      return 'Test event from ASO Analytics: this endpoint receives our webhooks.';
    default:
      return `Event ${event.type}.`;
  }
}

/** Slack's control characters in text: &, < and >. */
export function escapeSlack(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

export function slackMessage(event: EventEnvelope) {
  const text = escapeSlack(summarize(event));
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text } },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: escapeSlack(`${event.type} · ${event.createdAt} · ${event.id}`) }],
      },
    ],
  };
}

export function discordMessage(event: EventEnvelope) {
  const summary = summarize(event);
  return {
    content: summary,
    embeds: [{ title: event.type, description: summary, timestamp: event.createdAt, footer: { text: event.id } }],
    allowed_mentions: { parse: [] },
  };
}
