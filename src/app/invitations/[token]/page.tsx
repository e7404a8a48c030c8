// An invitation link (issue 40): who invites to which account with which role, and the way in: accept when signed in,
// sign in first, or, new here, choose a password and join. A link that no longer works says why, never a 5xx.
import Link from 'next/link';
import { headers } from 'next/headers';
import { PublicHeader } from '@/components/layout/public-header';
import { AcceptInvitation, JoinByInvitation } from '@/components/members/invitation-forms';
import { getSignedInActor, serverModules } from '@/app/server-modules';

export const metadata = { title: 'Invitation · ASO Analytics' };
export const dynamic = 'force-dynamic';

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { pageCaller, clientIp, INVITATION_REFUSALS, ROLE_LABELS } = await serverModules();
  const actor = await getSignedInActor();
  const caller = pageCaller(actor, clientIp(await headers()));
  const invitation = await caller.members.invitation({ token: token.slice(0, 200) });
  return (
    <>
      <PublicHeader />
      <main id="content">
        <div className="panel auth-card" data-testid="invitation">
          {invitation.status !== 'pending' ? (
            <>
              <h1>This invitation cannot be used</h1>
              <p data-testid="invitation-refusal">{INVITATION_REFUSALS[invitation.status]}</p>
              <p>
                <Link href="/sign-in">Sign in</Link>
              </p>
            </>
          ) : (
            <>
              <h1>Join {invitation.accountName}</h1>
              <p>
                You are invited to join <strong>{invitation.accountName}</strong> on ASO Analytics as{' '}
                <strong>{ROLE_LABELS[invitation.role].toLowerCase()}</strong>. The invitation is for{' '}
                <strong>{invitation.email}</strong>.
              </p>
              {actor ? (
                <AcceptInvitation token={token} />
              ) : (
                <>
                  <p>
                    Already have a user?{' '}
                    <Link href={`/sign-in?callbackUrl=${encodeURIComponent(`/invitations/${token}`)}`}>
                      Sign in to accept
                    </Link>
                    .
                  </p>
                  <h2>New here</h2>
                  <JoinByInvitation token={token} email={invitation.email} />
                </>
              )}
            </>
          )}
        </div>
      </main>
    </>
  );
}
