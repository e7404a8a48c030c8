'use client';
// Settings → API access → Connected apps: the AI agents and other apps the owner connected through OAuth (the consent
// page, src/app/oauth/consent/[uid]/page.tsx), beside the keys. Each has a key's scope and restrictions; restrict it
// (confirmed) or revoke it (confirmed, at once: its tokens are refused from their next call).
import Link from 'next/link';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog, focusable } from '@/components/common/confirm-dialog';
import { RowMenu } from '@/components/common/row-menu';
import { TableScroll } from '@/components/common/table-scroll';
import { formatInstant } from '@/components/format';
import { trpc } from '@/components/trpc';
import { useAction } from '@/components/use-action';
import type { ConnectedAppOutput } from '@/server/api/routers/connected-apps/connected-apps.schema';
import {
  describeRestrictions,
  draftOf,
  NO_RESTRICTIONS,
  RestrictionFields,
  restrictionsOf,
  type AppChoice,
  type RestrictionDraft,
} from './restriction-fields';

interface Props {
  connectedApps: ConnectedAppOutput[];
  apps: AppChoice[];
  mcpUrl: string;
}

export function ConnectedAppsPanel({ connectedApps, apps, mcpUrl }: Props) {
  const { pending, router } = useAction();
  const [confirming, setConfirming] = useState<{ kind: 'revoke' | 'restrict'; app: ConnectedAppOutput } | null>(null);
  const [draft, setDraft] = useState<RestrictionDraft>(NO_RESTRICTIONS);
  const heading = useRef<HTMLHeadingElement>(null);
  const confirmed = useRef<'revoke' | 'restrict' | null>(null);
  const active = connectedApps.filter((app) => app.status === 'active');

  function ask(kind: 'revoke' | 'restrict', app: ConnectedAppOutput) {
    setDraft(draftOf(app.restrictions));
    setConfirming({ kind, app });
  }

  async function onConfirm() {
    if (!confirming) return;
    const { kind, app } = confirming;
    confirmed.current = kind;
    if (kind === 'restrict') {
      await trpc.connectedApps.restrict.mutate({ id: app.id, restrictions: restrictionsOf(draft) });
      toast.success(`Restrictions of “${app.clientName}” saved: they apply from its next call`);
    } else {
      await trpc.connectedApps.revoke.mutate({ id: app.id });
      toast.success(`“${app.clientName}” disconnected: its tokens are refused from now on`);
    }
    router.refresh();
  }

  return (
    <section className="panel" aria-labelledby="connected-apps-heading">
      <h2 id="connected-apps-heading" ref={heading} tabIndex={-1}>
        Connected apps
      </h2>
      <p className="muted">
        AI agents you connected to the MCP server (<code>{mcpUrl}</code>) by signing in, without a key: see{' '}
        <Link href="/docs/mcp">connecting an agent</Link>. Each has a scope and restrictions as a key has, and spends
        this account’s credits.
      </p>
      {active.length === 0 ? (
        <p data-testid="no-connected-apps">No app is connected.</p>
      ) : (
        <TableScroll label="Connected apps">
          <table data-testid="connected-apps-table">
            <thead>
              <tr>
                <th>App</th>
                <th>Scope</th>
                <th>Restrictions</th>
                <th>Connected</th>
                <th>Last used</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {active.map((app) => (
                <tr key={app.id}>
                  <td>
                    <Link
                      href={`/settings/api/keys/${app.id}`}
                      title="Calls, credits and request log of this connected app"
                    >
                      {app.clientName}
                    </Link>
                    <div className="muted mono" title="Its client id">
                      {app.clientId.length > 24 ? `${app.clientId.slice(0, 24)}…` : app.clientId}
                    </div>
                  </td>
                  <td>{app.scope}</td>
                  <td>
                    {describeRestrictions(app, apps).map((line) => (
                      <div key={line}>{line}</div>
                    ))}
                  </td>
                  <td>{formatInstant(app.createdAt)}</td>
                  <td>
                    {app.lastUsedAt ? formatInstant(app.lastUsedAt) : 'Never'}
                    {app.lastUsedIp && <div className="muted mono">{app.lastUsedIp}</div>}
                  </td>
                  <td>
                    <RowMenu
                      label={app.clientName}
                      disabled={pending}
                      actions={[
                        { label: 'Restrict', onSelect: () => ask('restrict', app) },
                        { label: 'Revoke', onSelect: () => ask('revoke', app), danger: true },
                      ]}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
        testId="connected-app-dialog"
        title={
          confirming?.kind === 'restrict'
            ? `Restrict “${confirming.app.clientName}”`
            : `Revoke “${confirming?.app.clientName ?? ''}”?`
        }
        tone={confirming?.kind === 'revoke' ? 'danger' : 'primary'}
        confirmLabel={confirming?.kind === 'restrict' ? 'Save restrictions' : 'Revoke'}
        focusAfter={() => (confirmed.current === 'restrict' ? null : focusable(heading.current))}
        description={
          confirming?.kind === 'restrict' ? (
            <p>
              What it may reach, where it may call from, and what it may spend a month. Calls outside them are refused
              and cost nothing.
            </p>
          ) : (
            <p>Its access and refresh tokens are refused at once. To use it again, connect it again from the app.</p>
          )
        }
        onConfirm={onConfirm}
      >
        {confirming?.kind === 'restrict' && (
          <RestrictionFields draft={draft} onChange={setDraft} apps={apps} idPrefix="edit-connected-app" />
        )}
      </ConfirmDialog>
    </section>
  );
}
