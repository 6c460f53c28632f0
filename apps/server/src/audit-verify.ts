/**
 * `npm run audit:verify`: walks the audit trail's seals (issue 49, decision 0061) and says whether every sealed row
 * is as it was sealed; otherwise it names the first row changed, removed or inserted after sealing, and exits 1.
 * Needs the same AUTH_SIGNING_KEY (or DATA_DIR's key) as the servers that sealed.
 */
import { runWithDatabase } from './cli.ts';
import { createAuditChain } from './lib/audit-chain.ts';
import { resolveSigningKey } from './lib/signing-key.ts';

const WHAT = {
  changed: 'was changed',
  removed: 'was removed',
  inserted: 'was inserted after sealing',
  seal: 'is under a seal that does not check',
};

await runWithDatabase(async (config, database) => {
  const report = await createAuditChain(database.db, await resolveSigningKey(config)).verify();
  if (report.problem) {
    throw new Error(
      `the audit trail does not verify: row ${report.problem.rowId} ${WHAT[report.problem.kind]} (seal ${report.problem.sealId}).`,
    );
  }
  return `the audit trail verifies: ${report.sealedRows} rows under ${report.seals} seals${
    report.purgedRows ? ` (${report.purgedRows} purged by retention before them)` : ''
  }; ${report.unsealedRows} rows written since the last seal${report.lastSealedAt ? ` at ${report.lastSealedAt}` : ''}.`;
});
