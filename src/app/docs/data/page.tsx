// /docs/data: the data dictionary. Every figure the data endpoints answer, with its type and meaning, generated from
// the OpenAPI document (src/server/contract/data-dictionary.ts).
import Link from 'next/link';
import { DocsIntro } from '@/components/docs/docs-intro';
import { serverModules } from '@/app/server-modules';
import { TableScroll } from '@/components/common/table-scroll';
import { LongText } from '@/components/common/long-text';

export const metadata = { title: 'Data dictionary · ASO Analytics' };

export default async function DataDictionaryPage() {
  const { dataDictionary, pageOrigin } = await serverModules();
  const schemas = dataDictionary(pageOrigin());
  return (
    <main>
      <DocsIntro title="Data dictionary">
        <p>
          Every figure the data endpoints answer: its type, where it comes from, how often it is observed, what null
          means and what it cannot say. It is read from the API’s OpenAPI document, the same descriptions the{' '}
          <Link href="/docs/api">API reference</Link> shows. A rank, a chart position or a rating says whether it was
          observed: <code>ranked</code>, <code>unranked</code> (observed, and not in the store’s results: Apple shows at
          most 200, Google Play 100) or <code>not_observed</code>, never a number standing for “we did not look”. Every
          read about one app says the last day of data it reads and its storefront: in its <code>freshness</code> (with
          what it cannot say) when it is an object, and in the <code>Aso-Data-Through</code> and{' '}
          <code>Aso-Storefront</code> headers always, lists too (an MCP tool puts a list’s <code>freshness</code> beside
          its <code>items</code>). Meanings can change only with a dated version: see the{' '}
          <Link href="/docs/changelog">changelog</Link>.
        </p>
      </DocsIntro>
      {schemas.map((schema) => (
        <section
          key={schema.name}
          className="panel"
          aria-labelledby={`schema-${schema.name}`}
          data-schema={schema.name}
        >
          <h2 id={`schema-${schema.name}`}>{schema.name}</h2>
          {schema.description && <p>{schema.description}</p>}
          <p className="muted">
            Answered by{' '}
            {schema.operations.map((operation, index) => (
              <span key={operation}>
                {index > 0 && ', '}
                <code>{operation}</code>
              </span>
            ))}
            .
          </p>
          <TableScroll label={`Fields of ${schema.name}`}>
            <table className="dictionary">
              <thead>
                <tr>
                  <th>Field</th>
                  <th>Type</th>
                  <th>What it is</th>
                </tr>
              </thead>
              <tbody>
                {schema.fields.map((field) => (
                  <tr key={field.path} data-field={field.path}>
                    <td>
                      <code>{field.path}</code>
                    </td>
                    <td>
                      <code>{field.type}</code>
                    </td>
                    <td>
                      <LongText>{field.description || '—'}</LongText>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </section>
      ))}
    </main>
  );
}
