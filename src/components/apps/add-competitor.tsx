'use client';
// Competitors → Add competitor: its store page address, in a dialog. The store describes it as it is added (name,
// developer, category, rating), and its ranks for the app's tracked terms follow at once.
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { DialogActions, FormDialog } from '@/components/common/form-dialog';
import { trpc } from '@/components/trpc';
import { useAction } from '@/components/use-action';

export function AddCompetitor({ appId, store }: { appId: string; store: 'app_store' | 'google_play' }) {
  const [open, setOpen] = useState(false);
  const { run, pending, error } = useAction();
  const example =
    store === 'app_store'
      ? 'https://apps.apple.com/us/app/calm/id571800810'
      : 'https://play.google.com/store/apps/details?id=com.calm.android';

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const storeUrl = String(new FormData(event.currentTarget).get('storeUrl')).trim();
    await run(async () => {
      const { competitor, created } = await trpc.competitors.add.mutate({ id: appId, storeUrl });
      const name = competitor.name ?? competitor.storeId;
      toast.success(created ? `${name} added to competitors` : `${name} is already a competitor`);
      setOpen(false);
    });
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={setOpen}
      openLabel="Add competitor"
      title="Add a competitor"
      description={
        <p className="muted">
          Paste its App Store or Google Play page address. We look it up in the store, then follow its ranks for this
          app’s keywords every day. Free in the dashboard (2 credits over the API).
        </p>
      }
      testId="add-competitor"
    >
      <form onSubmit={onSubmit} aria-label="Add competitor">
        <label>
          Store page address
          <input
            name="storeUrl"
            type="url"
            required
            maxLength={2048}
            placeholder={example}
            aria-describedby="competitor-url-help"
            style={{ width: '100%' }}
          />
        </label>
        <p className="muted" id="competitor-url-help">
          For example {example}
        </p>
        <DialogActions error={error} pending={pending} submit={pending ? 'Looking it up…' : 'Add competitor'} />
      </form>
    </FormDialog>
  );
}
