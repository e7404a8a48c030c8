'use client';
// Settings → Members: who is in the account and with which role; for an owner or an admin, inviting (the link shown
// to pass on when no mail was sent), withdrawing an invitation, changing a role and removing a member; for anyone
// but the last owner, leaving. What each role may do is the table under the list (docs/api-decisions.md, "Teams").
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/common/confirm-dialog';
import { CopyButton } from '@/components/common/copy-button';
import { RowMenu } from '@/components/common/row-menu';
import { TableScroll } from '@/components/common/table-scroll';
import { formatInstant } from '@/components/format';
import { trpc } from '@/components/trpc';
import { useAction } from '@/components/use-action';

type Role = 'owner' | 'admin' | 'developer' | 'analyst' | 'billing';
type InvitableRole = Exclude<Role, 'owner'>;

interface Member {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  joinedAt: string;
}

interface Invitation {
  id: string;
  email: string;
  role: Role;
  expiresAt: string;
  invitedBy: string | null;
}

interface Props {
  members: Member[];
  invitations: Invitation[];
  manages: boolean;
  isOwner: boolean;
  me: string | null;
  roles: { value: InvitableRole; label: string }[];
  roleLabels: Record<Role, string>;
  seats: number | null;
  invitationDays: number;
  /** The pending offer of the account's ownership, if any. */
  offer: { toUserId: string; toEmail: string; fromEmail: string | null } | null;
}

export function MembersPanel({
  members,
  invitations,
  manages,
  isOwner,
  me,
  roles,
  roleLabels,
  seats,
  invitationDays,
  offer,
}: Props) {
  const { run, pending, error } = useAction();
  const [link, setLink] = useState<{ email: string; url: string; why: string } | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [offering, setOffering] = useState<Member | null>(null);
  const owners = members.filter((member) => member.role === 'owner').length;
  const used = members.length + invitations.length;

  async function onInvite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    await run(async () => {
      const invited = await trpc.members.invite.mutate({
        email: String(data.get('email')),
        role: String(data.get('role')) as InvitableRole,
      });
      if (invited.link) {
        setLink({
          email: invited.invitation.email,
          url: invited.link,
          why:
            invited.mail === 'failed'
              ? 'The mail server refused the invitation, so no email was sent.'
              : 'No email was sent: this server has no mail server set up (SMTP_URL).',
        });
      } else {
        setLink(null);
      }
      toast.success(
        invited.link
          ? `Invitation for ${invited.invitation.email} ready: pass the link on`
          : `Invitation sent to ${invited.invitation.email}`,
      );
      form.reset();
    });
  }

  const mayChange = (member: Member) => manages && member.userId !== me && (member.role !== 'owner' || isOwner);

  return (
    <>
      <section className="panel" aria-labelledby="members-heading">
        <h1 id="members-heading">Members</h1>
        <p className="muted" data-testid="seats">
          {seats === null
            ? `${members.length} members; this plan has no cap on seats.`
            : `${used} of ${seats} seats used, pending invitations included.`}{' '}
          Keys and webhook endpoints belong to the account: they keep working when the member who made them leaves.
        </p>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {offer && offer.toUserId === me && (
          <div className="notice" role="status" data-testid="ownership-offer">
            <p>
              {offer.fromEmail ?? 'An owner'} offers you the ownership of this account: you would manage its plan and
              members, and they would become an admin.
            </p>
            <div className="row">
              <button
                className="primary"
                type="button"
                disabled={pending}
                onClick={() =>
                  void run(async () => {
                    await trpc.members.answerOwnership.mutate({ accept: true });
                    toast.success('You own this account now');
                  })
                }
              >
                Accept ownership
              </button>
              <button
                type="button"
                disabled={pending}
                onClick={() =>
                  void run(async () => {
                    await trpc.members.answerOwnership.mutate({ accept: false });
                    toast.success('Ownership declined');
                  })
                }
              >
                Decline
              </button>
            </div>
          </div>
        )}
        {offer && isOwner && offer.toUserId !== me && (
          <p className="notice" role="status" data-testid="ownership-offered">
            Ownership offered to {offer.toEmail}: it passes once they accept it, and you then become an admin.{' '}
            <button
              type="button"
              disabled={pending}
              onClick={() =>
                void run(async () => {
                  await trpc.members.withdrawOwnershipOffer.mutate();
                  toast.success('Offer withdrawn');
                })
              }
            >
              Withdraw the offer
            </button>
          </p>
        )}
        <TableScroll label="Members">
          <table data-testid="members-table">
            <thead>
              <tr>
                <th>Member</th>
                <th>Role</th>
                <th>Joined</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <tr key={member.userId} data-member={member.email}>
                  <td>
                    {member.name ? `${member.name} · ` : ''}
                    {member.email}
                    {member.userId === me ? ' (you)' : ''}
                  </td>
                  <td>
                    {mayChange(member) && member.role !== 'owner' ? (
                      <select
                        aria-label={`Role of ${member.email}`}
                        value={member.role}
                        disabled={pending}
                        onChange={(event) =>
                          void run(async () => {
                            await trpc.members.changeRole.mutate({
                              userId: member.userId,
                              role: event.target.value as InvitableRole,
                            });
                            toast.success(
                              `${member.email} is now ${roleLabels[event.target.value as Role].toLowerCase()}`,
                            );
                          })
                        }
                      >
                        {roles.map((role) => (
                          <option key={role.value} value={role.value}>
                            {role.label}
                          </option>
                        ))}
                      </select>
                    ) : (
                      roleLabels[member.role]
                    )}
                  </td>
                  <td>{formatInstant(member.joinedAt)}</td>
                  <td>
                    <RowMenu
                      label={member.email}
                      actions={[
                        ...(isOwner && member.role !== 'owner'
                          ? [{ label: 'Offer ownership', onSelect: () => setOffering(member) }]
                          : []),
                        ...(mayChange(member)
                          ? [{ label: 'Remove', onSelect: () => setRemoving(member), danger: true }]
                          : []),
                        ...(member.userId === me && !(member.role === 'owner' && owners === 1)
                          ? [{ label: 'Leave this account', onSelect: () => setLeaving(true), danger: true }]
                          : []),
                      ]}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>

      {manages && (
        <section className="panel" aria-labelledby="invite-heading">
          <h2 id="invite-heading">Invite someone</h2>
          <form className="row" onSubmit={onInvite} aria-label="Invite a member">
            <label style={{ flex: '2 1 260px' }}>
              Email
              <input name="email" type="email" required autoComplete="off" />
            </label>
            <label style={{ flex: '1 1 160px' }}>
              Role
              <select name="role" defaultValue="developer">
                {roles.map((role) => (
                  <option key={role.value} value={role.value}>
                    {role.label}
                  </option>
                ))}
              </select>
            </label>
            <button className="primary" type="submit" disabled={pending}>
              Send invitation
            </button>
          </form>
          <p className="muted">The link works once, for that address only, for {invitationDays} days.</p>
          {link && (
            <div className="notice" data-testid="invitation-link" role="status">
              <p>
                {link.why} Pass this link on to {link.email}; it is shown only now.
              </p>
              <p>
                <code className="mono" data-testid="invitation-link-value">
                  {link.url}
                </code>
              </p>
              <CopyButton text={link.url} label="Copy link" what="The invitation link" testId="copy-invitation-link" />
            </div>
          )}
          {invitations.length > 0 && (
            <TableScroll label="Pending invitations">
              <table data-testid="invitations-table">
                <thead>
                  <tr>
                    <th>Invited</th>
                    <th>Role</th>
                    <th>Expires</th>
                    <th>
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {invitations.map((invitation) => (
                    <tr key={invitation.id} data-invitation={invitation.email}>
                      <td>
                        {invitation.email}
                        {invitation.invitedBy ? <span className="muted"> by {invitation.invitedBy}</span> : null}
                      </td>
                      <td>{roleLabels[invitation.role]}</td>
                      <td>{formatInstant(invitation.expiresAt)}</td>
                      <td>
                        <button
                          type="button"
                          disabled={pending}
                          aria-label={`Withdraw the invitation for ${invitation.email}`}
                          onClick={() =>
                            void run(async () => {
                              await trpc.members.revokeInvitation.mutate({ invitationId: invitation.id });
                              toast.success(`Invitation for ${invitation.email} withdrawn`);
                            })
                          }
                        >
                          Withdraw
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </section>
      )}

      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove member?"
        description={
          <>
            {removing?.email} loses access to this account at once: their open sessions are refused on their next
            request. The keys and webhook endpoints they made keep working; revoke them under API access if they should
            not.
          </>
        }
        confirmLabel="Remove member"
        onConfirm={async () => {
          await trpc.members.remove.mutate({ userId: removing!.userId });
          toast.success(`${removing!.email} removed`);
          setRemoving(null);
          location.reload();
        }}
        testId="remove-member"
      />
      <ConfirmDialog
        open={offering !== null}
        onOpenChange={(open) => !open && setOffering(null)}
        title="Offer ownership?"
        description={
          <>
            {offering?.email} becomes an owner once they accept, and you then become an admin: you keep everything but
            the plan, billing and ownership. Until then nothing changes, and you may withdraw the offer.
          </>
        }
        confirmLabel="Offer ownership"
        tone="primary"
        onConfirm={async () => {
          await trpc.members.offerOwnership.mutate({ userId: offering!.userId });
          toast.success(`Ownership offered to ${offering!.email}`);
          setOffering(null);
          location.reload();
        }}
        testId="offer-ownership"
      />
      <ConfirmDialog
        open={leaving}
        onOpenChange={setLeaving}
        title="Leave this account?"
        description="You lose access to this account at once. An owner or an admin can invite you again."
        confirmLabel="Leave account"
        onConfirm={async () => {
          await trpc.members.leave.mutate();
          location.assign('/');
        }}
        testId="leave-account"
      />
    </>
  );
}
