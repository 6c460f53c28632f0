/**
 * The practice's EPCS reports (21 CFR 1311.150 and .215; decision 0059), for its EPCS administrators — the
 * prescribers holding permission there: a day's controlled prescriptions signed (with the patient: reading it is
 * audited as a read of patient data) and the day's incidents (failed authentications, refused signings, every
 * change of permission).
 */
import { EPCS_MESSAGES, type EpcsReport } from '@hcp/contract';
import { writeAudit } from '../../lib/audit.ts';
import { epcsStandingOf, prescriberOf } from '../../lib/epcs.ts';
import { AppError } from '../../lib/errors.ts';
import type { EpcsContext, EpcsDeps } from './common.ts';
import * as repo from './repository.ts';

type Incident = Awaited<ReturnType<typeof repo.incidentsOn>>[number];
const change = (i: Incident) =>
  `${i.details.change === 'grant' ? 'grant' : 'revoke'} permission for ${i.subject ?? 'a prescriber'}`;
const INCIDENT_TEXT: Record<string, (incident: Incident) => string> = {
  'epcs.authentication.failed': (i) => `Two-factor authentication failed while ${String(i.details.during ?? 'signing')}.`,
  'epcs.sign.refused': (i) => `Signing refused: ${String(i.details.reason ?? '')}`,
  'epcs.access.entered': (i) => `Entered: ${change(i)}.`,
  'epcs.access.approved': (i) => `Approved: ${change(i)}.`,
  'epcs.access.declined': (i) => `Declined: ${change(i)}.`,
};

export function reportUseCases({ db, timeZone }: EpcsDeps) {
  return {
    async report(ctx: EpcsContext, practiceId: string, day: string): Promise<EpcsReport> {
      const practice = await repo.practiceOf(db, ctx.userId, practiceId);
      if (!practice) throw new AppError('NOT_FOUND', 'Practice not found.');
      const me = await prescriberOf(db, ctx.userId);
      if (!(await epcsStandingOf(db, practice.id, me.staffId)).permitted) throw new AppError('FORBIDDEN', EPCS_MESSAGES.noRights);
      const [signed, incidents] = await Promise.all([
        repo.signedOn(db, practice.id, { from: day, to: day, timeZone }),
        repo.incidentsOn(db, practice.id, { from: day, to: day, timeZone }),
      ]);
      await writeAudit(db, {
        actorUserId: ctx.userId,
        action: 'epcs.report.read',
        entityType: 'practice',
        entityId: practice.id,
        requestId: ctx.requestId,
        ip: ctx.ip,
        details: { day, signed: signed.length },
      });
      return {
        day,
        signed: signed.map((s) => ({
          signedAt: s.signedAt,
          prescriber: s.content.prescriber.name,
          dea: s.content.prescriber.dea,
          patient: s.content.patient.name,
          drug: [s.content.drug.name, s.content.drug.strength].filter(Boolean).join(' '),
          schedule: s.content.drug.schedule as EpcsReport['signed'][number]['schedule'],
          quantity: s.content.quantity,
          refills: s.content.refills,
          keyId: s.keyId,
        })),
        incidents: incidents.map((i) => ({
          at: i.at,
          kind: i.action.replace(/^epcs\./, ''),
          who: i.who,
          detail: (INCIDENT_TEXT[i.action] ?? (() => i.action))(i),
        })),
      };
    },
  };
}
