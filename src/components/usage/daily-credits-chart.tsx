'use client';
// Credits charged per day of the current period (recharts).
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export function DailyCreditsChart({ daily }: { daily: { date: string; calls: number; credits: number }[] }) {
  return (
    <div style={{ width: '100%', height: 200 }} data-testid="daily-credits-chart">
      <ResponsiveContainer>
        <BarChart data={daily} margin={{ top: 10, right: 10, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" vertical={false} />
          <XAxis dataKey="date" tickFormatter={(date: string) => date.slice(8)} fontSize={12} />
          <YAxis allowDecimals={false} fontSize={12} width={40} />
          <Tooltip formatter={(value) => [value, 'Credits']} labelFormatter={(date) => String(date)} />
          <Bar dataKey="credits" fill="#3b5bdb" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
