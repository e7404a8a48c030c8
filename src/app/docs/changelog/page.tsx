// /docs/changelog: the API's dated versions, newest first, each with what it changed and its OpenAPI document, from
// the list the API itself shapes answers by (src/server/domain/api-versions.ts).
import { DocsIntro } from '@/components/docs/docs-intro';
import { serverModules } from '@/app/server-modules';
import { CodeBlock } from '@/components/common/code-block';

export const metadata = { title: 'Changelog · ASO Analytics' };

/** `code` spans in a change's words, as the list writes them. */
function withCode(text: string) {
  return text
    .split(/(`[^`]+`)/)
    .map((part, index) =>
      part.startsWith('`') && part.endsWith('`') ? <code key={index}>{part.slice(1, -1)}</code> : part,
    );
}

export default async function ChangelogPage() {
  const { API_VERSIONS, LATEST_VERSION, VERSION_CHANGES } = await serverModules();
  const newestFirst = [...API_VERSIONS].reverse();
  return (
    <main>
      <DocsIntro title="Changelog and API versions">
        <p>
          <code>v1</code> in the path names the API; a date names what its answers mean. Send{' '}
          <code>Aso-Version: {LATEST_VERSION}</code> to be answered as that version; without it a call is answered as
          its key’s version, else its account’s: an account is pinned to the newest version when its first key is
          created, and accounts older than dated versions keep the original. Every answer names its version in its own{' '}
          <code>Aso-Version</code> header, and every webhook delivery in <code>apiVersion</code> (each endpoint pins one
          when it is created). A key or an endpoint may pin a version of its own (<code>apiVersion</code> when creating
          it).
        </p>
        <p>
          A version changes meanings, never the path. Fields may be added to every version (as{' '}
          <code>yourRankStatus</code> was): a client must accept fields it does not know. How long a version lives and
          how one is retired: below.
        </p>
        <CodeBlock
          code={`curl -H "Authorization: Bearer $KEY" -H "Aso-Version: ${LATEST_VERSION}" \\\n  https://<your-host>/api/public/v1/apps`}
        />
      </DocsIntro>
      {newestFirst.map((version) => (
        <section key={version} className="panel" aria-labelledby={`version-${version}`} data-version={version}>
          <h2 id={`version-${version}`}>
            {version} {version === LATEST_VERSION && <span className="badge active">newest</span>}
          </h2>
          <p>{VERSION_CHANGES[version].summary}</p>
          {VERSION_CHANGES[version].changes.length > 0 && (
            <ul>
              {VERSION_CHANGES[version].changes.map((change) => (
                <li key={change}>{withCode(change)}</li>
              ))}
            </ul>
          )}
          <p className="muted">
            Its OpenAPI document:{' '}
            <a href={`/api/public/v1/openapi.json?version=${version}`}>openapi.json?version={version}</a>
          </p>
        </section>
      ))}
      <section className="panel" aria-labelledby="lifecycle">
        <h2 id="lifecycle">How long a version lives</h2>
        <p>
          A version is answered for at least 24 months after the next one is published, and at least 12 months after we
          announce its retirement, by email to the owners of accounts whose keys, account or endpoints still use it and
          on this page. A retired version’s calls are answered as the oldest version still answered, never refused.
        </p>
      </section>
    </main>
  );
}
