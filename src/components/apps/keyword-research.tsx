'use client';
// Research → live keyword research from the dashboard: terms researched through the public API's own endpoint
// (GET /apps/{id}/keywords/research), as the signed-in user with a token of their sign-in, so that a call costs what it
// costs over the API (8 credits a term, said before and counted after) and is refused as it is refused there. The
// terms researched can then be tracked, free, as from Opportunities.
import { useState, type FormEvent } from 'react';
import { TrackAllCell, TrackTermCell, TrackTerms } from '@/components/apps/track-terms';
import { TableScroll } from '@/components/common/table-scroll';
import { formatCount, formatNumber } from '@/components/format';
import type { KeywordRoom } from '@/server/services/apps/apps';

/** Terms researched in one go, at most: the button says their cost first. */
const MAX_TERMS = 5;

interface Research {
  term: string;
  volume: number;
  difficulty: number;
  /** Left out when the term was not observed on the app's last day of data (Aso-Version 2026-11-29). */
  yourRank?: number | null;
  yourRankStatus: 'ranked' | 'unranked' | 'not_observed';
  topApps: { rank: number; name: string; developer: string }[];
  observedAt: string;
}

interface Props {
  appId: string;
  country: string;
  /** A Bearer credential of the public API for this sign-in (an hour at most); null: none could be made. */
  token: string | null;
  testMode: boolean;
  /** Credits one research costs (the procedure's declared cost). */
  cost: number;
  /** Credits left this month; null: unlimited. */
  remaining: number | null;
  apiAccess: boolean;
  planLabel: string;
  tracked: string[];
  room: KeywordRoom;
  /** The dated API version the page reads answers in (the newest). */
  apiVersion: string;
}

/** The terms typed, one per line or separated by commas, each once, in their order. */
function termsOf(text: string): string[] {
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const raw of text.split(/[\n,]/)) {
    const term = raw.trim().replace(/\s+/g, ' ');
    if (term && !seen.has(term.toLowerCase())) {
      seen.add(term.toLowerCase());
      terms.push(term);
    }
  }
  return terms;
}

export function KeywordResearch(props: Props) {
  const { appId, country, token, testMode, cost, apiAccess, planLabel, tracked, room, apiVersion } = props;
  const [text, setText] = useState('');
  const [results, setResults] = useState<Research[]>([]);
  const [remaining, setRemaining] = useState(props.remaining);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const terms = termsOf(text);
  const tooMany = terms.length > MAX_TERMS;
  const total = terms.length * cost;
  const affordable = remaining === null || total <= remaining;

  async function researchOne(term: string): Promise<Research> {
    const query = new URLSearchParams({ term, country });
    const response = await fetch(`/api/public/v1/apps/${appId}/keywords/research?${query}`, {
      // The version this page is written for, whatever the account's.
      headers: {
        Authorization: `Bearer ${token}`,
        'Aso-Version': apiVersion,
        ...(testMode ? { 'X-Test-Mode': 'true' } : {}),
      },
    });
    const left = response.headers.get('X-Credits-Remaining');
    if (left !== null) setRemaining(left === 'unlimited' ? null : Number(left));
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { detail?: string; title?: string } | null;
      throw new Error(`“${term}”: ${body?.detail ?? body?.title ?? `the research failed (${response.status})`}`);
    }
    return (await response.json()) as Research;
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!terms.length || tooMany || !affordable) return;
    setPending(true);
    setProblem(null);
    // One after the other: a refusal (out of credits) stops the rest before they are charged.
    const found: Research[] = [];
    try {
      for (const term of terms) found.push(await researchOne(term));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setResults((before) => [...found, ...before.filter((old) => !found.some((next) => next.term === old.term))]);
      setPending(false);
    }
  }

  const trackedSet = new Set(tracked.map((term) => term.toLowerCase()));
  const untracked = results.map((result) => result.term).filter((term) => !trackedSet.has(term.toLowerCase()));

  if (!apiAccess || token === null)
    return (
      <p className="notice" data-testid="research-unavailable">
        Live research reads the store at each call and costs {formatCount(cost, 'credit')} a term, from the account’s
        monthly credits. The {planLabel} plan has none: <a href="/settings/billing">choose a plan</a> to research terms.
        Opportunities and Keyword spy show the terms the app already ranks for, free.
      </p>
    );

  return (
    <>
      <form onSubmit={onSubmit} aria-label="Research keywords" className="research-form">
        <label>
          Terms to research in {country} (one per line or separated by commas, up to {MAX_TERMS})
          <textarea
            name="terms"
            rows={3}
            value={text}
            maxLength={1000}
            onChange={(event) => setText(event.target.value)}
            placeholder={'sleep sounds\nwhite noise'}
          />
        </label>
        <p className={tooMany || !affordable ? 'notice' : 'muted'} aria-live="polite" data-testid="research-cost">
          {tooMany
            ? `${terms.length} terms: research at most ${MAX_TERMS} at once.`
            : terms.length === 0
              ? `Each term costs ${formatCount(cost, 'credit')}.`
              : `${formatCount(terms.length, 'term')}: ${formatCount(total, 'credit')}.`}{' '}
          {remaining === null
            ? 'This account’s credits are unlimited.'
            : `${formatCount(remaining, 'credit')} left this month.`}
          {!affordable && !tooMany && ' Not enough for these terms: choose fewer, or wait for the next month.'}
        </p>
        <button
          className="primary"
          type="submit"
          disabled={pending || terms.length === 0 || tooMany || !affordable}
          data-testid="research-submit"
        >
          {pending ? 'Researching…' : terms.length ? `Research for ${formatCount(total, 'credit')}` : 'Research'}
        </button>
      </form>
      {problem && (
        <p className="error" role="alert" data-testid="research-problem">
          {problem}
        </p>
      )}
      {results.length > 0 && (
        <TrackTerms appId={appId} country={country} untracked={untracked} room={room}>
          <TableScroll label="Researched keywords">
            <table data-testid="research-table">
              <thead>
                <tr>
                  <th>
                    <TrackAllCell />
                  </th>
                  <th>Keyword</th>
                  <th>Volume</th>
                  <th>Difficulty</th>
                  <th>This app</th>
                  <th>Top apps</th>
                </tr>
              </thead>
              <tbody>
                {results.map((result) => (
                  <tr key={result.term} data-term={result.term}>
                    <td>
                      <TrackTermCell term={result.term} tracked={trackedSet.has(result.term.toLowerCase())} />
                    </td>
                    <td>{result.term}</td>
                    <td>{formatNumber(result.volume)}</td>
                    <td>{result.difficulty}</td>
                    <td>
                      {result.yourRankStatus === 'ranked'
                        ? `#${result.yourRank}`
                        : result.yourRankStatus === 'unranked'
                          ? 'Not ranked'
                          : 'Not observed'}
                    </td>
                    <td>
                      {result.topApps
                        .slice(0, 3)
                        .map((top) => `#${top.rank} ${top.name}`)
                        .join(' · ')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </TrackTerms>
      )}
    </>
  );
}
