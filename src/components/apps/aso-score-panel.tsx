// The ASO score as the API answers it: the score on its 0–100 scale, and each pillar's score, weight and
// contribution (score × weight: the contributions add up to the score, before rounding), with the recommendations.
import type { z } from 'zod';
import type { asoScoreOutput } from '@/server/api/routers/apps/apps.schema';

type AsoScore = z.infer<typeof asoScoreOutput>;

const PILLARS = [
  { key: 'metadata', label: 'Metadata' },
  { key: 'keywords', label: 'Keywords' },
  { key: 'ratingsAndReviews', label: 'Ratings & reviews' },
  { key: 'creativesAndConversion', label: 'Creatives & conversion' },
] as const;

export function AsoScorePanel({ score }: { score: AsoScore }) {
  return (
    <section className="panel" data-testid="aso-score" aria-labelledby="aso-score-title">
      <h2 id="aso-score-title">ASO score</h2>
      <div className="stats">
        <div>
          <div className="stat">
            <span data-testid="aso-score-value">{score.score}</span>
            <span className="muted" style={{ fontSize: '1rem', fontWeight: 400 }}>
              {' '}
              / 100
            </span>
          </div>
          <meter
            min={0}
            max={100}
            low={40}
            high={70}
            optimum={100}
            value={score.score}
            aria-label="ASO score out of 100"
            style={{ width: 160 }}
          />
          <div className="muted">
            {score.country} · {score.date}
          </div>
        </div>
        <table data-testid="aso-pillars" style={{ width: 'auto', flex: '1 1 320px' }}>
          <caption className="visually-hidden">Pillars of the score</caption>
          <thead>
            <tr>
              <th scope="col">Pillar</th>
              <th scope="col">Score</th>
              <th scope="col">Weight</th>
              <th scope="col">Adds</th>
            </tr>
          </thead>
          <tbody>
            {PILLARS.map(({ key, label }) => {
              const pillar = score.pillars[key];
              return (
                <tr key={key} data-pillar={key}>
                  <th scope="row">{label}</th>
                  <td>{Math.round(pillar.score)}</td>
                  <td>{Math.round(pillar.weight * 100)} %</td>
                  <td data-testid="pillar-contribution">{(pillar.score * pillar.weight).toFixed(1)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {score.recommendations.length > 0 && (
        <>
          <h3>What to improve</h3>
          <ul>
            {score.recommendations.map((recommendation) => (
              <li key={recommendation.message}>
                <span className="badge">{recommendation.impact} impact</span> {recommendation.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
