// A keyword's last days of rank, drawn small beside its row: rank 1 at the top, gaps where it was not ranked. Plain
// SVG: a table of a few hundred rows needs no chart library per cell. Screen readers get the first and last rank.
export function Sparkline({ points, label }: { points: { date: string; rank: number | null }[]; label: string }) {
  const width = 72;
  const height = 20;
  const ranks = points.map((point) => point.rank).filter((rank): rank is number => rank !== null);
  const first = points.find((point) => point.rank !== null)?.rank ?? null;
  const last = [...points].reverse().find((point) => point.rank !== null)?.rank ?? null;
  const summary = ranks.length === 0 ? `${label}: not ranked in these days` : `${label}: from #${first} to #${last}`;
  if (ranks.length === 0)
    return (
      <span className="muted" role="img" aria-label={summary}>
        —
      </span>
    );
  const best = Math.min(...ranks);
  const worst = Math.max(...ranks);
  const span = Math.max(1, worst - best);
  const x = (index: number) => (points.length === 1 ? width / 2 : (index / (points.length - 1)) * (width - 4) + 2);
  const y = (rank: number) => ((rank - best) / span) * (height - 4) + 2;
  // One path segment per run of ranked days.
  let path = '';
  let drawing = false;
  points.forEach((point, index) => {
    if (point.rank === null) {
      drawing = false;
      return;
    }
    path += `${drawing ? 'L' : 'M'}${x(index).toFixed(1)},${y(point.rank).toFixed(1)} `;
    drawing = true;
  });
  return (
    <svg
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={summary}
      data-testid="sparkline"
    >
      <path d={path} fill="none" stroke="var(--accent)" strokeWidth={1.5} />
    </svg>
  );
}
