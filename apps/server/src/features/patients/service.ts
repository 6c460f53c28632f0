/** All Patients: search and detail, only within the user's offices; every read lands in audit_log. */
import {
  formatApiDateTime,
  isRefillDue,
  type PatientDetail,
  type PatientSearchQuery,
  parsePatientSearchText,
} from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { entryOf, writeAudit } from '../../lib/audit.ts';
import { todayIsoOf } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { ReadRouting } from '../../lib/read-routing.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import * as repo from './repository.ts';

export type PatientsContext = SignedInContext;

export function createPatientsService(deps: { db: Database; reads: ReadRouting; now: () => Date }) {
  const { db } = deps;
  const todayIso = () => todayIsoOf(deps.now);

  return {
    searchJson(ctx: PatientsContext, query: PatientSearchQuery): Promise<string> {
      const entry = entryOf(ctx, 'patients.search', 'patient', null, { offset: query.offset, limit: query.limit });
      const input = {
        userId: ctx.userId,
        terms: parsePatientSearchText(query.searchText, deps.now().getFullYear()),
        offset: query.offset,
        limit: query.limit,
        todayIso: todayIso(),
      };
      return deps.reads.auditedList(ctx.userId, entry, (source, audit) => repo.searchPatientsJson(source, input, audit));
    },

    async detail(ctx: PatientsContext, patientId: string): Promise<PatientDetail> {
      const patient = await repo.findPatient(db, ctx.userId, patientId);
      if (!patient) throw new AppError('NOT_FOUND', 'Patient not found.');
      const rows = await repo.prescriptionsOfPatient(db, patientId);
      await writeAudit(db, {
        actorUserId: ctx.userId,
        action: 'patients.read',
        entityType: 'patient',
        entityId: patientId,
        requestId: ctx.requestId,
        ip: ctx.ip,
      });
      const today = todayIso();
      return {
        patient,
        prescriptions: rows.map(({ rx, prescriberFirstName, prescriberLastName, prescriberRole }) => ({
          id: rx.id,
          practiceId: rx.mdOfficeId,
          patientID: rx.patientId,
          needsRefillAuth: isRefillDue(rx.needsRefillAuth, rx.refillPostponedUntil, today),
          refillPostponedUntil: rx.refillPostponedUntil,
          phoneException: rx.phoneException,
          substitutionStatus: rx.substitutionStatus,
          priorAuthStatus: rx.priorAuthStatus,
          priorAuthMethod: (rx.priorAuthMethod as PatientDetail['prescriptions'][number]['priorAuthMethod']) ?? null,
          hcpActionRequired: rx.hcpActionRequired,
          dispensedNdc: rx.dispensedNdc,
          prescribedNdc: rx.prescribedNdc,
          drugName: rx.drugName,
          strength: rx.strength,
          quantity: rx.quantity,
          daysSupply: rx.daysSupply,
          refills: rx.refills,
          sig: rx.sig,
          prescribedDate: formatApiDateTime(rx.prescribedAt),
          lastProcessedDate: rx.lastProcessedAt ? formatApiDateTime(rx.lastProcessedAt) : null,
          orderNumber: rx.orderNumber,
          orderStatus: rx.orderStatus,
          price: rx.price === null ? null : Number(rx.price),
          alternativeMeds: [],
          prescriberName: `${prescriberFirstName} ${prescriberLastName}`,
          prescriberRole,
        })),
      };
    },
  };
}
export type PatientsService = ReturnType<typeof createPatientsService>;
