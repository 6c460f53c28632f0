import {
  type CommentThread,
  capitalizeName,
  commentBodySchema,
  formatApiDate,
  formatDateTime,
  mayChangePatientData,
  normalizeError,
  ROUTES,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { z } from 'zod';
import { FullPageLoader } from '../../../components/full-page-loader.tsx';
import { Page } from '../../../components/page.tsx';
import { readSession } from '../../../lib/storage.ts';
import { useClinicalAccess } from '../../../lib/support-access/use-clinical-access.ts';
import { useCommentThread } from '../api/get-comment-thread.ts';
import { useMarkMentionsRead } from '../api/mark-mentions-read.ts';
import { usePostReply } from '../api/post-reply.ts';
import styles from '../components/new-comments.module.css';

const replySchema = z.object({ comment: commentBodySchema });

/** 'Jane Doe' for the thread's patient; the page is about one person and says who. */
const patientName = (patient: NonNullable<CommentThread['patient']>) =>
  `${capitalizeName(patient.firstName)} ${capitalizeName(patient.lastName)}`;

/** /new-comments/{patientId}: the thread, a reply box and 'Mark as read'. */
export default function NewCommentsDetailRoute() {
  const { patientId = '' } = useParams();
  const userId = readSession()?.userId ?? '';
  const navigate = useNavigate();
  const thread = useCommentThread(patientId);
  const reply = usePostReply(userId, patientId);
  const markRead = useMarkMentionsRead(userId, patientId);
  const replyId = useId();
  // A read-only support window (decision 0020) shows the thread without the reply box.
  const { access } = useClinicalAccess(userId);
  const canWrite = access !== undefined && mayChangePatientData(access);
  const form = useForm<z.infer<typeof replySchema>>({ resolver: zodResolver(replySchema), defaultValues: { comment: '' } });

  if (thread.isPending) return <FullPageLoader label="Loading comments…" />;
  if (thread.isError) {
    return (
      <Page title="Comments">
        <p role="alert">{normalizeError(thread.error, 'Could not load the comments.').message}</p>
        <Link to={ROUTES.newComments}>Back to New Comments</Link>
      </Page>
    );
  }
  const { records, patient } = thread.data;
  const name = patient ? patientName(patient) : null;
  const unread = records.flatMap((r) => (r.mentionId ? [r.mentionId] : []));
  const error = form.formState.errors.comment?.message;
  return (
    <Page title={name ? `Comments from ${name}` : 'Comments'}>
      {patient ? <p className={styles.meta}>DOB {formatApiDate(patient.dob)}</p> : null}
      <p>
        <Link to={ROUTES.newComments}>Back to New Comments</Link>
      </p>
      {records.length === 0 ? (
        <p>No comments yet.</p>
      ) : (
        <ol className={styles.thread} aria-label="Comments, oldest first">
          {records.map((c) => (
            <li key={c.id} className={styles.comment}>
              <span className={styles.meta}>
                {c.fromPatient && name ? `${name} (patient)` : c.authorName} ·{' '}
                <time dateTime={c.createdAt}>{formatDateTime(c.createdAt)}</time>
                {c.medication ? ` · about ${c.medication}` : null}
              </span>
              {c.unread ? <span className={styles.new}>New</span> : null}
              <p>{c.body}</p>
            </li>
          ))}
        </ol>
      )}
      {canWrite ? (
        <>
          <div className={styles.actions}>
            {unread.length > 0 ? (
              <button
                type="button"
                className={styles.button}
                disabled={markRead.isPending}
                onClick={() =>
                  markRead.mutate(unread, {
                    onSuccess: () => {
                      toast.success('Marked as read.');
                      navigate(ROUTES.newComments);
                    },
                  })
                }
              >
                Mark as read
              </button>
            ) : null}
          </div>
          {markRead.error ? (
            <p role="alert" className={styles.error}>
              {normalizeError(markRead.error).message}
            </p>
          ) : null}
          <form
            className={styles.reply}
            noValidate
            onSubmit={form.handleSubmit(({ comment }) =>
              reply.mutate(comment, {
                onSuccess: () => {
                  form.reset();
                  toast.success('Reply sent.');
                },
              }),
            )}
          >
            <label htmlFor={replyId}>Reply</label>
            <textarea
              id={replyId}
              className={styles.replyBox}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${replyId}-error` : undefined}
              {...form.register('comment')}
            />
            {error ? (
              <span id={`${replyId}-error`} className={styles.error}>
                {error}
              </span>
            ) : null}
            {reply.error ? (
              <p role="alert" className={styles.error}>
                {normalizeError(reply.error, 'Could not send the reply.').message}
              </p>
            ) : null}
            <div className={styles.actions}>
              <button type="submit" className={styles.button} disabled={reply.isPending}>
                {reply.isPending ? 'Sending…' : 'Send reply'}
              </button>
            </div>
          </form>
        </>
      ) : (
        <p>Support access is read-only: the practice’s own people answer its patients.</p>
      )}
    </Page>
  );
}
