import Link from 'next/link';
import { serverModules } from '@/app/server-modules';
import { TableScroll } from '@/components/common/table-scroll';

export const metadata = { title: 'API problem types · ASO Analytics' };

export default async function ProblemTypesPage() {
  const { PROBLEM_TYPES } = await serverModules();
  return (
    <main>
      <div className="panel">
        <h1>API problem types</h1>
        <p>
          Every error of the Public Data API is an RFC 9457 problem (<code>application/problem+json</code>) with{' '}
          <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code>, <code>instance</code> and{' '}
          <code>requestId</code>. Its <code>type</code> is the address of one of these pages. Failed calls cost no
          credits.
        </p>
        <TableScroll label="Problem types">
          <table>
            <thead>
              <tr>
                <th>Status</th>
                <th>Type</th>
                <th>Title</th>
              </tr>
            </thead>
            <tbody>
              {Object.values(PROBLEM_TYPES).map((type) => (
                <tr key={type.slug}>
                  <td>{type.status}</td>
                  <td>
                    <Link href={`/docs/problems/${type.slug}`}>{type.slug}</Link>
                  </td>
                  <td>{type.title}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </div>
    </main>
  );
}
