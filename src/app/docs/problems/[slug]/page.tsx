import Link from 'next/link';
import { notFound } from 'next/navigation';
import { serverModules } from '@/app/server-modules';

export async function generateStaticParams() {
  const { PROBLEM_TYPES } = await serverModules();
  return Object.values(PROBLEM_TYPES).map((type) => ({ slug: type.slug }));
}

export const dynamicParams = false;

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }) {
  const { problemTypeBySlug } = await serverModules();
  const type = problemTypeBySlug((await params).slug);
  return { title: type ? `${type.title} · API problem types` : 'API problem types' };
}

/** Renders `code` spans written with backticks in the descriptions. */
function Text({ children }: { children: string }) {
  return (
    <>
      {children
        .split(/(`[^`]+`)/)
        .map((part, index) => (part.startsWith('`') ? <code key={index}>{part.slice(1, -1)}</code> : part))}
    </>
  );
}

export default async function ProblemTypePage({ params }: { params: Promise<{ slug: string }> }) {
  const { problemTypeBySlug } = await serverModules();
  const type = problemTypeBySlug((await params).slug);
  if (!type) notFound();
  return (
    <main>
      <div className="panel">
        <p className="muted">
          <Link href="/docs/problems">API problem types</Link>
        </p>
        <h1>{type.title}</h1>
        <p>
          HTTP status <strong>{type.status}</strong> · type <code>{type.slug}</code>
        </p>
        <p>
          <Text>{type.description}</Text>
        </p>
        <h2>What to do</h2>
        <p>
          <Text>{type.remedy}</Text>
        </p>
      </div>
    </main>
  );
}
