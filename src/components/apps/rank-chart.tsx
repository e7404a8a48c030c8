'use client';
// Daily rank of one keyword (recharts). Rank 1 is drawn at the top; unranked days leave a gap.
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export function RankChart({ points, term }: { points: { date: string; rank: number | null }[]; term: string }) {
  return (
    <div style={{ width: '100%', height: 260 }} data-testid="rank-chart" aria-label={`Rank history of ${term}`}>
      <ResponsiveContainer>
        <LineChart data={points} margin={{ top: 10, right: 20, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis dataKey="date" tickFormatter={(date: string) => date.slice(5)} minTickGap={24} fontSize={12} />
          <YAxis reversed allowDecimals={false} domain={[1, 'dataMax']} fontSize={12} width={40} />
          <Tooltip formatter={(value) => [value === null ? 'not ranked' : `#${value}`, 'Rank']} />
          <Line type="monotone" dataKey="rank" stroke="#3b5bdb" strokeWidth={2} dot={false} connectNulls={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
