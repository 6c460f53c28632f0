/** Appeals: sign in to one appeal (NPI + access key, or as its signed-in prescriber), draft, attachments, submit. */

import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  APPEAL_AUTH_FAILED,
  APPEAL_LINK_EXPIRED,
  APPEAL_PREPARE_ONLY,
  APPEAL_TOKEN_HEADER,
  appealAuthResponseSchema,
} from '@hcp/contract';
import type { Bundle, Task } from '@medplum/fhirtypes';
import { and, count, eq, inArray, isNull, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { diskAttachmentsLeft, diskUploadsDir, moveDiskAttachments } from '../src/features/appeals/disk-attachments.ts';
import { createAppealsService } from '../src/features/appeals/service.ts';
import { validated } from '../src/features/fhir/validate.ts';
import { createFileLinks } from '../src/lib/file-links.ts';
import { createFileStore, type FileStore } from '../src/lib/file-store/index.ts';
import { createOutboundGuard } from '../src/lib/outbound/guard.ts';
import { demoAppealKey } from '../src/seed/generate.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';
import { errorPaths } from './support/errors.ts';
import { multipartBody } from './support/multipart.ts';
import { startLocalS3 } from './support/s3.ts';
import { startReceiver } from './support/webhook-receiver.ts';

let t: TestApp;
let appeals: (typeof s.appeals.$inferSelect)[];
let store: FileStore;
beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hcp-appeals-'));
  t = await buildTestApp({ now: () => TEST_NOW, env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', DATA_DIR: dataDir } });
  appeals = await t.database.db.select().from(s.appeals).orderBy(s.appeals.id);
  // The database store (the test app's): it makes no outbound call, so the guard is never asked.
  store = createFileStore(t.config.fileStore, t.database.db, createOutboundGuard({ allowedNetworks: [] }).fetch);
});
/** Whether the file store holds content under a stored name. */
const stored = async (key: string | undefined) => (await store.get(key as string)) !== null;
const storedCount = async () => (await t.database.db.select({ n: count() }).from(s.storedFiles))[0]?.n;
afterAll(() => t.close());

const auth = (payload: Record<string, unknown>, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/mdo/v1/appeal-auth', payload, remoteAddress: ip });
const first = () => appeals[0] as (typeof appeals)[number];
const credentials = (a = first()) => ({ npi: a.npi, key: demoAppealKey(a.id) });

describe('appeal sign-in', () => {
  it('opens the appeal for its NPI and key (any case), with a token for that appeal only', async () => {
    const res = await auth({ ...credentials(), key: demoAppealKey(first().id).toLowerCase() });
    expect(res.statusCode, res.body).toBe(200);
    const body = appealAuthResponseSchema.parse(res.json());
    expect(body.appeal).toMatchObject({
      id: first().id,
      status: 'HCP_ACTION_REQUIRED',
      clinicalNotesRequired: first().clinicalNotesRequired,
    });
    expect(body.appeal.patientName).toMatch(/^[A-Z]/);
    expect(new Date(body.expiresAt).getTime()).toBeGreaterThan(TEST_NOW.getTime());
  });

  it('answers one generic 401 for a wrong NPI or an unknown key, and 410 for an expired key', async () => {
    const wrongNpi = await auth({ ...credentials(), npi: '1234567893' });
    const wrongKey = await auth({ ...credentials(), key: 'NOT-A-KEY-123' });
    for (const res of [wrongNpi, wrongKey]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().error.message).toBe(APPEAL_AUTH_FAILED);
    }
    const second = appeals[1] as (typeof appeals)[number];
    await t.database.db
      .update(s.appeals)
      .set({ accessKeyExpiresAt: new Date(TEST_NOW.getTime() - 1000) })
      .where(eq(s.appeals.id, second.id));
    const expired = await auth(credentials(second));
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error.message).toBe(APPEAL_LINK_EXPIRED);
    // An expired link with the wrong NPI still says nothing about the link.
    expect((await auth({ ...credentials(second), npi: '1234567893' })).statusCode).toBe(401);
    expect(errorPaths(await auth({ npi: '12', key: '' }))).toEqual(['body.key', 'body.npi']);
  });

  it('locks an appeal after five wrong NPIs, even for the right one, and audits attempts', async () => {
    const third = appeals[2] as (typeof appeals)[number];
    for (let i = 0; i < 5; i += 1) expect((await auth({ ...credentials(third), npi: '1234567893' })).statusCode).toBe(401);
    const locked = await auth(credentials(third));
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const [failures] = await t.database.db
      .select({ n: count() })
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'appeal.auth.failure'), eq(s.auditLog.entityId, third.id)));
    expect(failures?.n).toBe(5);
  });

  it('rate-limits sign-in attempts per client address', async () => {
    const limited = await buildTestApp({ now: () => TEST_NOW, env: { AUTH_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/api/mdo/v1/appeal-auth',
          payload: { npi: '1234567893', key: 'NOT-A-KEY-123' },
          remoteAddress: '10.9.9.9',
        });
        codes.push(res.statusCode);
      }
      expect(codes.slice(0, 3)).toEqual([401, 401, 401]);
      expect(codes.slice(3)).toEqual([429, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('reading and saving with the appeal token', () => {
  it('saves the draft (last write wins), reads it back, and refuses another appeal or no token (404)', async () => {
    const { token } = (await auth(credentials())).json();
    const url = `/api/mdo/v1/appeal/${first().id}`;
    const headers = { [APPEAL_TOKEN_HEADER]: token };
    const draft = { clinicalJustification: 'Failed two formulary alternatives.', diagnosisCodes: 'K58.0', urgency: 'expedited' };
    const saved = await t.app.inject({ method: 'POST', url: `${url}/save`, headers, payload: draft });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().draft).toMatchObject({ ...draft, treatmentsTried: '', attestation: false });
    const again = await t.app.inject({
      method: 'POST',
      url: `${url}/save`,
      headers,
      payload: { ...draft, diagnosisCodes: 'K58.1' },
    });
    expect(again.json().draft.diagnosisCodes).toBe('K58.1');
    const read = await t.app.inject({ method: 'GET', url, headers });
    expect(read.json().draft.diagnosisCodes).toBe('K58.1');

    const other = `/api/mdo/v1/appeal/${(appeals[3] as (typeof appeals)[number]).id}`;
    expect((await t.app.inject({ method: 'GET', url: other, headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `${other}/save`, headers, payload: draft })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url, headers: { [APPEAL_TOKEN_HEADER]: `${token}x` } })).statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'POST', url: `${url}/save`, headers, payload: { urgency: 'yesterday' } });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses to change a submitted appeal (409)', async () => {
    const fifth = appeals[4] as (typeof appeals)[number];
    const { token } = (await auth(credentials(fifth))).json();
    await t.database.db.update(s.appeals).set({ submittedAt: TEST_NOW, status: 'SUBMITTED' }).where(eq(s.appeals.id, fifth.id));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/mdo/v1/appeal/${fifth.id}/save`,
      headers: { [APPEAL_TOKEN_HEADER]: token },
      payload: {},
    });
    expect(res.statusCode).toBe(409);
  });
});

function multipart(parts: { field: string; filename: string; content: Buffer }[]) {
  const body = multipartBody(parts);
  return { payload: body.payload, headers: { 'content-type': body.contentType } };
}
const pdf = (size = 2048) => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(Math.max(0, size - 9), 0x20)]);
const png = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);

describe('attachments and submit', () => {
  async function open(index: number) {
    const appeal = appeals[index] as (typeof appeals)[number];
    const { token } = (await auth(credentials(appeal), `10.0.1.${index}`)).json();
    const upload = (parts: Parameters<typeof multipart>[0]) => {
      const body = multipart(parts);
      return t.app.inject({
        method: 'POST',
        url: `/api/mdo/v1/appeal/${appeal.id}/file-upload`,
        payload: body.payload,
        headers: { ...body.headers, [APPEAL_TOKEN_HEADER]: token },
      });
    };
    return { appeal, token, upload, headers: { [APPEAL_TOKEN_HEADER]: token } };
  }

  it('keeps files by slot, checks the type by content and the size, and replaces a slot’s earlier file', async () => {
    const { appeal, upload } = await open(6);
    const first = await upload([
      { field: 'denialLetterFile', filename: 'denial.pdf', content: pdf() },
      { field: 'otherFile', filename: 'scan.png', content: png() },
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(
      first
        .json()
        .files.map((f: { slot: string; contentType: string }) => `${f.slot}:${f.contentType}`)
        .sort(),
    ).toEqual(['denialLetterFile:application/pdf', 'otherFile:image/png']);
    const [before] = await t.database.db
      .select()
      .from(s.appealFiles)
      .where(and(eq(s.appealFiles.appealId, appeal.id), eq(s.appealFiles.slot, 'denialLetterFile')));
    const replaced = await upload([{ field: 'denialLetterFile', filename: 'denial-v2.pdf', content: pdf(4096) }]);
    expect(replaced.json().files.find((f: { slot: string }) => f.slot === 'denialLetterFile')).toMatchObject({
      originalName: 'denial-v2.pdf',
      sizeBytes: 4096,
    });
    const rows = await t.database.db.select().from(s.appealFiles).where(eq(s.appealFiles.appealId, appeal.id));
    expect(rows).toHaveLength(2);
    expect(await stored(before?.storedName)).toBe(false);
    expect(await stored(rows.find((r) => r.slot === 'denialLetterFile')?.storedName)).toBe(true);
    const objectsBefore = await storedCount();

    // A ".pdf" that is really a Windows program is refused by its content.
    const fake = await upload([
      { field: 'clinicalNotesFile', filename: 'notes.pdf', content: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(512)]) },
    ]);
    expect(fake.statusCode).toBe(415);
    const tooBig = await upload([{ field: 'clinicalNotesFile', filename: 'huge.pdf', content: pdf(10 * 1024 * 1024 + 10) }]);
    expect(tooBig.statusCode).toBe(413);
    const unknown = await upload([{ field: 'photoFile', filename: 'x.pdf', content: pdf() }]);
    expect(unknown.statusCode).toBe(400);
    // A good file followed by a bad one in the same request: neither is kept.
    const mixed = await upload([
      { field: 'clinicalNotesFile', filename: 'notes.pdf', content: pdf(300_000) },
      {
        field: 'otherFile',
        filename: 'archive.docx',
        content: Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(600_000)]),
      },
    ]);
    expect(mixed.statusCode).toBe(415);
    // No token, another appeal's token, or a submitted appeal: refused before any byte is stored.
    const body = multipart([{ field: 'otherFile', filename: 'x.pdf', content: pdf(200_000) }]);
    const url = `/api/mdo/v1/appeal/${appeal.id}/file-upload`;
    const noToken = await t.app.inject({ method: 'POST', url, payload: body.payload, headers: body.headers });
    expect(noToken.statusCode).toBe(404);
    expect(errorPaths(mixed)).toEqual(['body.otherFile']);
    expect((await t.database.db.select().from(s.appealFiles).where(eq(s.appealFiles.appealId, appeal.id))).length).toBe(2);
    // Nothing a refused upload streamed in stays in storage.
    expect(await storedCount()).toBe(objectsBefore);
  });

  it('refuses more than 25 MB of attachments for one appeal', async () => {
    const { upload } = await open(7);
    const nine = 9 * 1024 * 1024;
    expect((await upload([{ field: 'denialLetterFile', filename: 'a.pdf', content: pdf(nine) }])).statusCode).toBe(200);
    expect((await upload([{ field: 'clinicalTrialFile', filename: 'b.pdf', content: pdf(nine) }])).statusCode).toBe(200);
    const over = await upload([{ field: 'otherFile', filename: 'c.pdf', content: pdf(nine) }]);
    expect(over.statusCode).toBe(413);
  });

  it('submits a complete appeal once: flag cleared, event and message to the pharmacy; incomplete ones say what is missing', async () => {
    const { appeal, upload, headers } = await open(8);
    const url = `/api/mdo/v1/appeal/${appeal.id}`;
    const incomplete = await t.app.inject({ method: 'POST', url: `${url}/submit`, headers });
    expect(incomplete.statusCode).toBe(400);
    const missing = errorPaths(incomplete);
    expect(missing).toEqual(
      expect.arrayContaining([
        'appeal.clinicalJustification',
        'appeal.attestation',
        ...(appeal.clinicalNotesRequired ? ['appeal.clinicalNotesFile'] : []),
      ]),
    );
    await t.app.inject({
      method: 'POST',
      url: `${url}/save`,
      headers,
      payload: { clinicalJustification: 'Two formulary alternatives failed.', attestation: true },
    });
    await upload([{ field: 'clinicalNotesFile', filename: 'notes.pdf', content: pdf() }]);
    const submitted = await t.app.inject({ method: 'POST', url: `${url}/submit`, headers });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json()).toMatchObject({ status: 'SUBMITTED', submittedAt: TEST_NOW.toISOString() });
    const [rx] = await t.database.db.select().from(s.prescriptions).where(eq(s.prescriptions.id, appeal.prescriptionId));
    expect(rx?.hcpActionRequired).toBe(false);
    const events = await t.database.db
      .select()
      .from(s.prescriptionEvents)
      .where(eq(s.prescriptionEvents.prescriptionId, appeal.prescriptionId));
    expect(events.map((e) => e.type)).toContain('APPEAL_SUBMITTED');
    const messages = await t.database.db.select().from(s.outbox).where(eq(s.outbox.prescriptionId, appeal.prescriptionId));
    expect(messages.map((m) => (m.payload as { kind: string }).kind)).toContain('appeal-submitted');
    expect((await t.app.inject({ method: 'POST', url: `${url}/submit`, headers })).statusCode).toBe(409);
    expect((await upload([{ field: 'otherFile', filename: 'late.pdf', content: pdf() }])).statusCode).toBe(409);
  });

  it('tells the pharmacy of a submitted appeal with expiring links to its attachments; a link reads one file until it expires', async () => {
    const receiver = await startReceiver();
    try {
      const admin = await signIn(t.app, 'admin@demo.hcp');
      const created = await injectAs(t.app, admin, {
        method: 'POST',
        url: '/api/mdo/v1/webhook-endpoints',
        payload: { url: receiver.url, events: ['appeal.submitted'] },
      });
      expect(created.statusCode, created.body).toBe(201);
      receiver.secrets = [created.json().secret];
      const { appeal, upload, headers } = await open(13);
      const url = `/api/mdo/v1/appeal/${appeal.id}`;
      await t.app.inject({
        method: 'POST',
        url: `${url}/save`,
        headers,
        payload: { clinicalJustification: 'Two formulary alternatives failed.', attestation: true },
      });
      const notes = pdf(3000);
      await upload([
        { field: 'clinicalNotesFile', filename: 'notes.pdf', content: notes },
        { field: 'otherFile', filename: 'scan.png', content: png() },
      ]);
      expect((await t.app.inject({ method: 'POST', url: `${url}/submit`, headers })).statusCode).toBe(200);
      // Earlier tests' appeals are told too (the endpoint hears every decision not yet dispatched): find this one.
      const ours = () => receiver.received.find((r) => r.body.includes(appeal.prescriptionId));
      for (let i = 0; i < 5 && !ours(); i += 1) await t.app.webhookWorker.runOnce();
      const message = ours();
      expect(message?.verified).toBe(true);
      const bundle = validated<Bundle>(JSON.parse(message?.body ?? '{}'), 'Bundle');
      const task = bundle.entry?.[1]?.resource as Task;
      const links = (task.output ?? []).filter((o) => o.type.coding?.[0]?.code === 'attachment').map((o) => o.valueAttachment);
      expect(links.map((l) => `${l?.title}:${l?.contentType}`).sort()).toEqual([
        'Additional Attachment:image/png',
        'Clinical Notes/Medical Records:application/pdf',
      ]);
      expect(message?.body).not.toContain('notes.pdf');
      const notesLink = links.find((l) => l?.contentType === 'application/pdf');
      expect(notesLink?.size).toBe(3000);
      const link = new URL(notesLink?.url as string);
      expect(link.pathname).toMatch(/^\/api\/pharmacy\/v1\/appeal-files\/[0-9a-f-]{36}$/);
      const expires = Number(link.searchParams.get('expires'));
      expect(expires * 1000).toBeGreaterThan(Date.now() + 6 * 86_400_000);

      const read = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
      expect(read.statusCode).toBe(200);
      expect(read.headers['content-type']).toBe('application/pdf');
      expect(read.headers['content-disposition']).toMatch(/^attachment;/);
      expect(read.rawPayload.equals(notes)).toBe(true);
      const audits = await t.database.db.select().from(s.auditLog).where(eq(s.auditLog.entityId, appeal.id));
      expect(audits.some((a) => a.action === 'appeal.file.read' && (a.details as { via?: string }).via === 'pharmacy-link')).toBe(
        true,
      );

      const fileId = link.pathname.split('/').at(-1) as string;
      const tampered = `${link.pathname}?expires=${expires + 86_400}&signature=${link.searchParams.get('signature')}`;
      expect((await t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(404);
      const expired = new URL(
        createFileLinks(t.config.authSigningKey as string).url('http://x', fileId, new Date(Date.now() - 1000)),
      );
      const gone = await t.app.inject({ method: 'GET', url: `${expired.pathname}${expired.search}` });
      expect(gone.statusCode).toBe(410);
      expect(gone.json().error.code).toBe('GONE');
      expect((await t.app.inject({ method: 'GET', url: link.pathname })).statusCode).toBe(400);
      // A valid link to a file of an appeal not submitted yet reads nothing.
      const [draftFile] = await t.database.db
        .select()
        .from(s.appealFiles)
        .innerJoin(s.appeals, eq(s.appeals.id, s.appealFiles.appealId))
        .where(isNull(s.appeals.submittedAt))
        .limit(1);
      if (draftFile) {
        const draft = new URL(
          createFileLinks(t.config.authSigningKey as string).url(
            'http://x',
            draftFile.appeal_files.id,
            new Date(Date.now() + 60_000),
          ),
        );
        expect((await t.app.inject({ method: 'GET', url: `${draft.pathname}${draft.search}` })).statusCode).toBe(404);
      }
    } finally {
      await receiver.close();
    }
  });
});

describe('reading back and removing attachments', () => {
  it('serves a file only to its own appeal’s token, as a download of the checked type', async () => {
    const appeal = appeals[9] as (typeof appeals)[number];
    const { token } = (await auth(credentials(appeal), '10.0.2.9')).json();
    const headers = { [APPEAL_TOKEN_HEADER]: token };
    const content = pdf(3000);
    const body = multipart([{ field: 'clinicalTrialFile', filename: "study (Ü) 'A'.pdf", content }]);
    const url = `/api/mdo/v1/appeal/${appeal.id}`;
    await t.app.inject({
      method: 'POST',
      url: `${url}/file-upload`,
      payload: body.payload,
      headers: { ...body.headers, ...headers },
    });
    const res = await t.app.inject({ method: 'GET', url: `${url}/files/clinicalTrialFile`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(content)).toBe(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe("attachment; filename*=UTF-8''study%20%28%C3%9C%29%20%27A%27.pdf");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');

    const otherToken = (await auth(credentials(appeals[10] as (typeof appeals)[number]), '10.0.2.10')).json().token;
    for (const h of [{}, { [APPEAL_TOKEN_HEADER]: otherToken }]) {
      expect((await t.app.inject({ method: 'GET', url: `${url}/files/clinicalTrialFile`, headers: h })).statusCode).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: `${url}/files/otherFile`, headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `${url}/files/photoFile`, headers })).statusCode).toBe(400);
  });

  it('removes a file from its slot and from storage; another appeal’s token cannot; a submitted appeal keeps it (409)', async () => {
    const appeal = appeals[11] as (typeof appeals)[number];
    const { token } = (await auth(credentials(appeal), '10.0.2.11')).json();
    const headers = { [APPEAL_TOKEN_HEADER]: token };
    const url = `/api/mdo/v1/appeal/${appeal.id}`;
    const body = multipart([
      { field: 'denialLetterFile', filename: 'denial.pdf', content: pdf() },
      { field: 'otherFile', filename: 'other.png', content: png() },
    ]);
    await t.app.inject({
      method: 'POST',
      url: `${url}/file-upload`,
      payload: body.payload,
      headers: { ...body.headers, ...headers },
    });
    const [kept] = await t.database.db
      .select()
      .from(s.appealFiles)
      .where(and(eq(s.appealFiles.appealId, appeal.id), eq(s.appealFiles.slot, 'otherFile')));
    const key = kept?.storedName;
    expect(await stored(key)).toBe(true);

    const otherToken = (await auth(credentials(appeals[12] as (typeof appeals)[number]), '10.0.2.12')).json().token;
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `${url}/files/otherFile`,
      headers: { [APPEAL_TOKEN_HEADER]: otherToken },
    });
    expect(foreign.statusCode).toBe(404);
    expect(await stored(key)).toBe(true);

    const removed = await t.app.inject({ method: 'DELETE', url: `${url}/files/otherFile`, headers });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().files.map((f: { slot: string }) => f.slot)).toEqual(['denialLetterFile']);
    expect(await stored(key)).toBe(false);
    // Removing an empty slot again changes nothing and says so with the same answer.
    const again = await t.app.inject({ method: 'DELETE', url: `${url}/files/otherFile`, headers });
    expect(again.statusCode).toBe(200);
    expect(again.json().files).toHaveLength(1);

    await t.database.db.update(s.appeals).set({ submittedAt: TEST_NOW, status: 'SUBMITTED' }).where(eq(s.appeals.id, appeal.id));
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/files/denialLetterFile`, headers })).statusCode).toBe(409);
  });
});

describe('a signed-in prescriber opens their own appeal without the key', () => {
  it('answers the appeal and a token for its prescriber; other practices’ prescribers and other prescriptions 404', async () => {
    const morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
    const [me] = await t.database.db.select().from(s.users).where(eq(s.users.email, 'dr.morgan@demo.hcp'));
    const [own] = await t.database.db
      .select({ rxId: s.prescriptions.id, appealId: s.appeals.id })
      .from(s.appeals)
      .innerJoin(s.prescriptions, eq(s.prescriptions.id, s.appeals.prescriptionId))
      .where(eq(s.prescriptions.prescriberId, me?.mdStaffId as string))
      .limit(1);
    expect(own, 'the demo seed gives Dr. Morgan an appeal').toBeDefined();
    const ask = (tokens: typeof morgan, prescriptionId: string) =>
      injectAs(t.app, tokens, {
        method: 'POST',
        url: `/api/mdo/v1/users/${tokens.userID}/appeal-auth`,
        payload: { prescriptionId },
      });
    const res = await ask(morgan, own?.rxId as string);
    expect(res.statusCode, res.body).toBe(200);
    const body = appealAuthResponseSchema.parse(res.json());
    expect(body.appeal.id).toBe(own?.appealId);
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/mdo/v1/appeal/${own?.appealId}`,
      headers: { [APPEAL_TOKEN_HEADER]: body.token },
    });
    expect(read.statusCode).toBe(200);

    // Someone else's appeal, the practice's staff, and a prescription without an appeal: all 404.
    const [foreign] = await t.database.db
      .select({ rxId: s.prescriptions.id })
      .from(s.appeals)
      .innerJoin(s.prescriptions, eq(s.prescriptions.id, s.appeals.prescriptionId))
      .where(ne(s.prescriptions.prescriberId, me?.mdStaffId as string))
      .limit(1);
    expect((await ask(morgan, foreign?.rxId as string)).statusCode).toBe(404);
    // The practice's staff open it to prepare it for him (issue 23): a prepare-only token.
    const lee = await signIn(t.app, 'staff.lee@demo.hcp');
    const prepared = await ask(lee, own?.rxId as string);
    expect(prepared.statusCode, prepared.body).toBe(200);
    expect(prepared.json()).toMatchObject({ prepareOnly: true, appeal: { id: own?.appealId } });
    expect(body).not.toHaveProperty('prepareOnly');
    const [plain] = await t.database.db
      .select({ id: s.prescriptions.id })
      .from(s.prescriptions)
      .where(and(eq(s.prescriptions.prescriberId, me?.mdStaffId as string), eq(s.prescriptions.hcpActionRequired, false)))
      .limit(1);
    expect((await ask(morgan, plain?.id as string)).statusCode).toBe(404);
    expect((await ask(morgan, 'not-a-uuid')).statusCode).toBe(400);
    const audited = await t.database.db
      .select({ actor: s.auditLog.actorUserId, details: s.auditLog.details })
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'appeal.auth.portal'), eq(s.auditLog.entityId, own?.appealId as string)));
    expect(audited).toEqual(
      expect.arrayContaining([
        { actor: morgan.userID, details: {} },
        { actor: lee.userID, details: { prepareOnly: true } },
      ]),
    );
    expect(audited).toHaveLength(2);
  });
});

describe('housekeeping of stored attachments', () => {
  it('removes stored content no appeal refers to once it is an hour old, and keeps attached and fresh content', async () => {
    const [attached] = await t.database.db.select().from(s.appealFiles).limit(1);
    expect(attached, 'an earlier test attached a file').toBeDefined();
    const put = (key: string) =>
      store.put(
        key,
        (async function* () {
          yield Buffer.from('%PDF-1.4 left behind');
        })(),
      );
    const orphan = randomUUID();
    const fresh = randomUUID();
    await put(orphan);
    await put(fresh);
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await t.database.db
      .update(s.storedFiles)
      .set({ createdAt: twoHoursAgo })
      .where(inArray(s.storedFiles.key, [orphan, attached?.storedName as string]));

    const service = createAppealsService({ db: t.database.db, signingKey: 'k'.repeat(32), now: () => new Date(), store });
    expect(await service.sweepOrphanFiles(new Date())).toEqual({ removed: 1 });
    expect(await stored(orphan)).toBe(false);
    expect(await stored(fresh)).toBe(true);
    expect(await stored(attached?.storedName)).toBe(true);
    expect(await service.sweepOrphanFiles(new Date())).toEqual({ removed: 0 });
  });
});

describe('npm run migrate-files: attachments from the old upload folder', () => {
  it('moves referenced files into the store byte for byte, removes them from disk, leaves the rest, and runs again safely', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hcp-disk-uploads-'));
    const dir = diskUploadsDir(dataDir);
    await mkdir(dir, { recursive: true });
    const withFiles = new Set((await t.database.db.select({ id: s.appealFiles.appealId }).from(s.appealFiles)).map((r) => r.id));
    const appeal = appeals.find((a) => !withFiles.has(a.id)) as (typeof appeals)[number];
    const name = randomUUID();
    const content = pdf(700_000);
    await writeFile(path.join(dir, name), content);
    await writeFile(path.join(dir, 'not-an-attachment'), 'x');
    await t.database.db.insert(s.appealFiles).values({
      appealId: appeal.id,
      slot: 'otherFile',
      originalName: 'old.pdf',
      storedName: name,
      contentType: 'application/pdf',
      sizeBytes: content.length,
    });
    expect(await diskAttachmentsLeft(dataDir)).toBe(2);

    expect(await moveDiskAttachments({ db: t.database.db, store, dataDir })).toEqual({
      moved: 1,
      alreadyStored: 0,
      unreferenced: 1,
    });
    const back = await store.get(name);
    const pieces: Buffer[] = [];
    for await (const piece of back as NonNullable<typeof back>) pieces.push(piece as Buffer);
    expect(Buffer.concat(pieces).equals(content)).toBe(true);
    expect(await readdir(dir)).toEqual(['not-an-attachment']);
    expect(await moveDiskAttachments({ db: t.database.db, store, dataDir })).toEqual({
      moved: 0,
      alreadyStored: 0,
      unreferenced: 1,
    });
    await rm(dataDir, { recursive: true, force: true });
  });
});

describe('attachments in S3-compatible storage (S3_URL)', () => {
  it('stores uploads in the bucket, reads them back, and keeps none in the database', async () => {
    const s3 = await startLocalS3('appeals');
    const other = await buildTestApp({
      database: t.database,
      now: () => TEST_NOW,
      env: { S3_URL: s3.url, AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
    });
    try {
      expect(other.config.fileStore.kind).toBe('s3');
      // The last appeal no other test touched (and still open).
      const open = await t.database.db.select({ id: s.appeals.id }).from(s.appeals).where(isNull(s.appeals.submittedAt));
      const appeal = appeals.findLast((a) => open.some((o) => o.id === a.id)) as (typeof appeals)[number];
      const { token } = (
        await other.app.inject({
          method: 'POST',
          url: '/api/mdo/v1/appeal-auth',
          payload: credentials(appeal),
          remoteAddress: '10.0.3.1',
        })
      ).json();
      const headers = { [APPEAL_TOKEN_HEADER]: token };
      const content = pdf(6 * 1024 * 1024 + 5);
      const body = multipart([{ field: 'denialLetterFile', filename: 'denial.pdf', content }]);
      const objectsBefore = await storedCount();
      const uploaded = await other.app.inject({
        method: 'POST',
        url: `/api/mdo/v1/appeal/${appeal.id}/file-upload`,
        payload: body.payload,
        headers: { ...body.headers, ...headers },
      });
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      expect(await storedCount()).toBe(objectsBefore);
      const read = await other.app.inject({
        method: 'GET',
        url: `/api/mdo/v1/appeal/${appeal.id}/files/denialLetterFile`,
        headers,
      });
      expect(read.statusCode).toBe(200);
      expect(read.headers['content-length']).toBe(String(content.length));
      expect(read.rawPayload.equals(content)).toBe(true);
    } finally {
      await other.app.close();
      await s3.close();
    }
  });
});

describe('reusing a patient’s earlier appeal files (issue 23)', () => {
  it('offers the files of the patient’s earlier appeals at the practice, puts one in a slot by reference, never another practice’s', async () => {
    const db = t.database.db;
    const rxOf = async (appealId: string) =>
      (
        await db
          .select({ id: s.prescriptions.id, patientId: s.prescriptions.patientId, officeId: s.prescriptions.mdOfficeId })
          .from(s.prescriptions)
          .innerJoin(s.appeals, eq(s.appeals.prescriptionId, s.prescriptions.id))
          .where(eq(s.appeals.id, appealId))
      )[0] as { id: string; patientId: string; officeId: string };
    const [earlier, current] = [appeals[14], appeals[15]] as [(typeof appeals)[number], (typeof appeals)[number]];
    const earlierRx = await rxOf(earlier.id);
    // The current appeal is for another prescription of the same patient at the same practice.
    const currentRx = await rxOf(current.id);
    await db
      .update(s.prescriptions)
      .set({ patientId: earlierRx.patientId, mdOfficeId: earlierRx.officeId })
      .where(eq(s.prescriptions.id, currentRx.id));
    const elsewhere = [];
    for (const a of appeals.slice(16)) if ((await rxOf(a.id)).officeId !== earlierRx.officeId) elsewhere.push(a);
    const foreign = elsewhere[0] as (typeof appeals)[number];
    expect(foreign, 'the demo seed has appeals at another practice').toBeDefined();

    const tokenOf = async (a: (typeof appeals)[number], ip: string) => (await auth(credentials(a), ip)).json().token as string;
    const call = (appealId: string, token: string, method: 'GET' | 'POST' | 'DELETE', suffix: string, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/mdo/v1/appeal/${appealId}${suffix}`,
        headers: { [APPEAL_TOKEN_HEADER]: token },
        ...(payload ? { payload } : {}),
      });

    // The earlier appeal: clinical notes attached, then submitted.
    const earlierToken = await tokenOf(earlier, '10.0.4.1');
    const body = multipart([{ field: 'clinicalNotesFile', filename: 'notes-2026.pdf', content: pdf(4096) }]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/mdo/v1/appeal/${earlier.id}/file-upload`,
      payload: body.payload,
      headers: { ...body.headers, [APPEAL_TOKEN_HEADER]: earlierToken },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const currentToken = await tokenOf(current, '10.0.4.2');
    // Not offered while the earlier appeal is a draft: only what was given with a submitted appeal.
    expect((await call(current.id, currentToken, 'GET', '/earlier-files')).json().records).toEqual([]);
    await db.update(s.appeals).set({ submittedAt: TEST_NOW, status: 'SUBMITTED' }).where(eq(s.appeals.id, earlier.id));
    const [notes] = await db.select().from(s.appealFiles).where(eq(s.appealFiles.appealId, earlier.id));

    const offered = await call(current.id, currentToken, 'GET', '/earlier-files');
    expect(offered.statusCode, offered.body).toBe(200);
    expect(offered.json().records).toEqual([
      {
        fileId: notes?.id,
        slot: 'clinicalNotesFile',
        originalName: 'notes-2026.pdf',
        contentType: 'application/pdf',
        sizeBytes: 4096,
        submittedAt: TEST_NOW.toISOString(),
      },
    ]);
    // Another practice's appeal is offered nothing of this patient's, and cannot take the file by its id.
    const foreignToken = await tokenOf(foreign, '10.0.4.3');
    expect((await call(foreign.id, foreignToken, 'GET', '/earlier-files')).json().records).not.toContainEqual(
      expect.objectContaining({ fileId: notes?.id }),
    );
    const stolen = await call(foreign.id, foreignToken, 'POST', '/reuse-file', { fileId: notes?.id, slot: 'otherFile' });
    expect(stolen.statusCode).toBe(404);
    expect(await db.select().from(s.appealFiles).where(eq(s.appealFiles.appealId, foreign.id))).toEqual([]);
    // Without this appeal's token: 404 as every appeal call.
    expect((await call(current.id, foreignToken, 'GET', '/earlier-files')).statusCode).toBe(404);

    // Bad input is refused at its field, nothing written.
    const badId = await call(current.id, currentToken, 'POST', '/reuse-file', { fileId: 'not-a-file', slot: 'otherFile' });
    expect(badId.statusCode).toBe(400);
    expect(errorPaths(badId)).toEqual(['body.fileId']);
    const badSlot = await call(current.id, currentToken, 'POST', '/reuse-file', { fileId: notes?.id, slot: 'x' });
    expect(errorPaths(badSlot)).toEqual(['body.slot']);
    expect(await db.select().from(s.appealFiles).where(eq(s.appealFiles.appealId, current.id))).toEqual([]);
    const reused = await call(current.id, currentToken, 'POST', '/reuse-file', { fileId: notes?.id, slot: 'otherFile' });
    expect(reused.statusCode, reused.body).toBe(200);
    expect(reused.json().files).toEqual([expect.objectContaining({ slot: 'otherFile', originalName: 'notes-2026.pdf' })]);
    const [shared] = await db.select().from(s.appealFiles).where(eq(s.appealFiles.appealId, current.id));
    expect(shared?.storedName).toBe(notes?.storedName);
    const download = await call(current.id, currentToken, 'GET', '/files/otherFile');
    expect(download.rawPayload.length).toBe(4096);
    // Taking it out of the draft keeps the earlier appeal's content (the submitted appeal still refers to it).
    expect((await call(current.id, currentToken, 'DELETE', '/files/otherFile')).statusCode).toBe(200);
    expect(await stored(notes?.storedName)).toBe(true);
    const audited = await db
      .select({ action: s.auditLog.action })
      .from(s.auditLog)
      .where(
        and(eq(s.auditLog.entityId, current.id), inArray(s.auditLog.action, ['appeal.file.reuse', 'appeal.earlier-files.read'])),
      );
    expect(audited.map((a) => a.action).sort()).toEqual([
      'appeal.earlier-files.read',
      'appeal.earlier-files.read',
      'appeal.file.reuse',
    ]);
    // A submitted appeal takes no more files.
    expect(
      (await call(earlier.id, earlierToken, 'POST', '/reuse-file', { fileId: notes?.id, slot: 'otherFile' })).statusCode,
    ).toBe(409);
  });
});

describe('the practice’s staff prepare an appeal for its prescriber (issue 23)', () => {
  it('fill it in and attach files, but never attest or submit it; another practice’s staff see nothing', async () => {
    const db = t.database.db;
    const [me] = await db.select().from(s.users).where(eq(s.users.email, 'dr.morgan@demo.hcp'));
    const open = await db
      .select({ rxId: s.prescriptions.id, appealId: s.appeals.id })
      .from(s.appeals)
      .innerJoin(s.prescriptions, eq(s.prescriptions.id, s.appeals.prescriptionId))
      .where(and(eq(s.prescriptions.prescriberId, me?.mdStaffId as string), isNull(s.appeals.submittedAt)));
    const target = open.at(-1) as { rxId: string; appealId: string };
    expect(target, 'the demo seed gives Dr. Morgan an open appeal').toBeDefined();
    const lee = await signIn(t.app, 'staff.lee@demo.hcp');
    const opened = await injectAs(t.app, lee, {
      method: 'POST',
      url: `/api/mdo/v1/users/${lee.userID}/appeal-auth`,
      payload: { prescriptionId: target.rxId },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const headers = { [APPEAL_TOKEN_HEADER]: opened.json().token as string };
    const url = `/api/mdo/v1/appeal/${target.appealId}`;

    const draft = {
      clinicalJustification: 'Tried two formulary alternatives; both failed.',
      diagnosisCodes: 'H04.123',
      treatmentsTried: 'Restasis 0.05% for 3 months',
      urgency: 'standard',
      attestation: true,
    };
    const saved = await t.app.inject({ method: 'POST', url: `${url}/save`, headers, payload: draft });
    expect(saved.statusCode, saved.body).toBe(200);
    // The attestation is the prescriber's: what staff save never carries it.
    expect(saved.json().draft).toEqual({ ...draft, attestation: false });
    const body = multipart([{ field: 'clinicalNotesFile', filename: 'notes.pdf', content: pdf() }]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `${url}/file-upload`,
      payload: body.payload,
      headers: { ...body.headers, ...headers },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);

    const submitted = await t.app.inject({ method: 'POST', url: `${url}/submit`, headers });
    expect(submitted.statusCode).toBe(403);
    expect(submitted.json().error.message).toBe(APPEAL_PREPARE_ONLY);
    const [row] = await db.select().from(s.appeals).where(eq(s.appeals.id, target.appealId));
    expect(row?.submittedAt).toBeNull();

    // The prescriber finds it as staff left it, attests and submits.
    const morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
    const his = await injectAs(t.app, morgan, {
      method: 'POST',
      url: `/api/mdo/v1/users/${morgan.userID}/appeal-auth`,
      payload: { prescriptionId: target.rxId },
    });
    expect(his.json().appeal.draft).toMatchObject({ clinicalJustification: draft.clinicalJustification, attestation: false });
    expect(his.json().appeal.files).toContainEqual(
      expect.objectContaining({ slot: 'clinicalNotesFile', originalName: 'notes.pdf' }),
    );
    const mine = { [APPEAL_TOKEN_HEADER]: his.json().token as string };
    await t.app.inject({ method: 'POST', url: `${url}/save`, headers: mine, payload: draft });
    const done = await t.app.inject({ method: 'POST', url: `${url}/submit`, headers: mine });
    expect(done.statusCode, done.body).toBe(200);

    // Another practice's people: nothing to open.
    const patel = await signIn(t.app, 'vam.staff@demo.hcp');
    const foreign = await injectAs(t.app, patel, {
      method: 'POST',
      url: `/api/mdo/v1/users/${patel.userID}/appeal-auth`,
      payload: { prescriptionId: target.rxId },
    });
    expect(foreign.statusCode).toBe(404);
  });
});
