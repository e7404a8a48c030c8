'use client';
// Reviews → answering a review read with the account's store account: draft a reply (or the deletion of the answer),
// and, for a member whose role allows it, approve a draft (then it is sent to the store, once) or discard it. Drafts
// made by keys and agents wait here for a person, as the member's own do.
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ConfirmButton } from '@/components/common/confirm-button';
import { DialogActions, FormDialog } from '@/components/common/form-dialog';
import { trpc } from '@/components/trpc';
import { useAction } from '@/components/use-action';

const STORE_NAMES = { app_store: 'the App Store', google_play: 'Google Play' } as const;

interface DraftProps {
  appId: string;
  reviewId: string;
  store: 'app_store' | 'google_play';
  /** The most the store takes. */
  maxLength: number;
  /** The answer the review has now, if any: a new reply replaces it. */
  answer: string | null;
  author: string;
}

/** Reply (or edit the answer) in a dialog; the App Store's answer may also be deleted. Both make a draft. */
export function DraftReply({ appId, reviewId, store, maxLength, answer, author }: DraftProps) {
  const [open, setOpen] = useState(false);
  const [length, setLength] = useState(answer?.length ?? 0);
  const { run, pending, error } = useAction();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = String(new FormData(event.currentTarget).get('body'));
    await run(async () => {
      await trpc.reviews.draftReply.mutate({ id: appId, reviewId, action: 'reply', body });
      toast.success('Reply drafted: it is sent once a member approves it');
      setOpen(false);
    });
  }

  return (
    <div className="row" style={{ gap: '0.5rem' }}>
      <FormDialog
        open={open}
        onOpenChange={setOpen}
        openLabel={answer ? 'Edit answer' : 'Reply'}
        title={answer ? `Edit your answer to ${author}` : `Reply to ${author}`}
        description={
          <p className="muted">
            Your reply is a draft until an owner or an admin approves it; it is then sent to {STORE_NAMES[store]}, which
            shows it under the review{answer ? ' in place of your current answer' : ''}.
          </p>
        }
        testId={`draft-reply-${reviewId}`}
        plain
      >
        <form onSubmit={onSubmit} aria-label="Draft a reply">
          <label>
            Reply
            <textarea
              name="body"
              required
              rows={5}
              maxLength={maxLength}
              defaultValue={answer ?? ''}
              onChange={(event) => setLength(event.currentTarget.value.length)}
              aria-describedby={`reply-length-${reviewId}`}
              style={{ width: '100%' }}
            />
          </label>
          <p className="muted" id={`reply-length-${reviewId}`}>
            {length} of {maxLength} characters ({STORE_NAMES[store]}’s limit)
          </p>
          <DialogActions error={error} pending={pending} submit={pending ? 'Saving…' : 'Save draft'} />
        </form>
      </FormDialog>
      {answer && store === 'app_store' && (
        <ConfirmButton
          label="Delete answer"
          ariaLabel={`Delete your answer to ${author}`}
          title={`Delete your answer to ${author}?`}
          consequence="This drafts the deletion: once a member approves it, the answer is removed from the App Store."
          onConfirm={async () => {
            await trpc.reviews.draftReply.mutate({ id: appId, reviewId, action: 'delete' });
          }}
          done="Deletion drafted: it happens once a member approves it"
          testId={`draft-delete-${reviewId}`}
        />
      )}
    </div>
  );
}

/** A draft waiting for approval: approve it (sent to the store at once) or discard it. */
export function DraftDecision({
  appId,
  draftId,
  canApprove,
  label,
}: {
  appId: string;
  draftId: string;
  canApprove: boolean;
  /** What the draft does, for the buttons' accessible names ("reply to reviewer0"). */
  label: string;
}) {
  const { run, pending, error } = useAction();
  return (
    <div className="row" style={{ gap: '0.5rem', alignItems: 'center' }}>
      {canApprove ? (
        <button
          type="button"
          className="primary"
          disabled={pending}
          aria-label={`Approve and send the ${label}`}
          data-testid={`approve-${draftId}`}
          onClick={() =>
            run(async () => {
              const draft = await trpc.reviews.approveReplyDraft.mutate({ id: appId, draftId });
              toast.success(draft.state === 'sent' ? 'Sent to the store' : 'Approved: it is being sent to the store');
            })
          }
        >
          {pending ? 'Approving…' : 'Approve and send'}
        </button>
      ) : (
        <span className="muted">Waits for an owner or an admin to approve it.</span>
      )}
      <button
        type="button"
        disabled={pending}
        aria-label={`Discard the ${label}`}
        data-testid={`discard-${draftId}`}
        onClick={() =>
          run(async () => {
            await trpc.reviews.discardReplyDraft.mutate({ id: appId, draftId });
            toast.success('Draft discarded');
          })
        }
      >
        Discard
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
