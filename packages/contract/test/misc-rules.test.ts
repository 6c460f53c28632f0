import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  activeTabForPath,
  apiPaths,
  compareRxRows,
  DEFAULT_RX_LIST_SORT,
  ENVIRONMENT_ENDPOINTS,
  ERROR_CODES,
  endpointsFor,
  environmentKind,
  errorBodySchema,
  generateRequestId,
  isErrorBody,
  isRequestId,
  nextRxListSort,
  normalizeError,
  resolveSkipErxConfirmation,
  STATUS_ERROR_MESSAGE,
  sortRxRows,
  webPaths,
} from '../src/index.ts';

describe('request id', () => {
  it('is 24 letters and digits, and differs each time', () => {
    const ids = Array.from({ length: 200 }, generateRequestId);
    for (const id of ids) expect(isRequestId(id)).toBe(true);
    expect(new Set(ids).size).toBe(200);
    expect(isRequestId('short')).toBe(false);
    expect(isRequestId(`${'a'.repeat(23)}-`)).toBe(false);
  });
});

describe('environments', () => {
  it('maps names to production or dev', () => {
    for (const n of ['production', 'cks-prod', 'eks-prod']) expect(environmentKind(n)).toBe('production');
    for (const n of ['development', 'dev', 'cks-dev', 'eks-dev']) expect(environmentKind(n)).toBe('dev');
    // APP_ENV picks each kind's API, auth and operations addresses; any other name is a local machine.
    expect(endpointsFor('eks-prod')).toEqual(ENVIRONMENT_ENDPOINTS.production);
    expect(endpointsFor('cks-dev')).toEqual(ENVIRONMENT_ENDPOINTS.dev);
    expect(endpointsFor(undefined)).toEqual(ENVIRONMENT_ENDPOINTS.local);
    expect(endpointsFor('production').operations).not.toBe(endpointsFor('dev').operations);
    expect(endpointsFor('production', { api: 'https://api.example', operations: 'https://ops.example/o' })).toEqual({
      api: 'https://api.example',
      auth: 'https://api.example',
      operations: 'https://ops.example/o',
    });
    expect(environmentKind('staging')).toBeNull();
    expect(environmentKind(undefined)).toBeNull();
  });
});

describe('Rx list sorting', () => {
  const rows = [
    { practiceName: 'beta', prescribedDate: '2026-01-02 10:00:00' },
    { practiceName: 'Alpha', prescribedDate: '2026-01-03 09:00:00' },
    { practiceName: 'alpha2', prescribedDate: '' },
    { practiceName: 'Gamma', prescribedDate: '2025-12-31 23:00:00' },
  ];
  it('defaults to practice name ascending, case-insensitively', () => {
    expect(DEFAULT_RX_LIST_SORT).toEqual({ key: 'practiceName', direction: 'asc' });
    expect(sortRxRows(rows).map((r) => r.practiceName)).toEqual(['Alpha', 'alpha2', 'beta', 'Gamma']);
  });
  it('sorts dates by time, empty last in both directions', () => {
    const asc = sortRxRows(rows, { key: 'prescribedDate', direction: 'asc' }).map((r) => r.practiceName);
    const desc = sortRxRows(rows, { key: 'prescribedDate', direction: 'desc' }).map((r) => r.practiceName);
    expect(asc).toEqual(['Gamma', 'beta', 'Alpha', 'alpha2']);
    expect(desc).toEqual(['Alpha', 'beta', 'Gamma', 'alpha2']);
  });
  it('toggles the active column and starts other columns ascending', () => {
    const s1 = nextRxListSort(DEFAULT_RX_LIST_SORT, 'practiceName');
    expect(s1).toEqual({ key: 'practiceName', direction: 'desc' });
    expect(nextRxListSort(s1, 'patientName')).toEqual({ key: 'patientName', direction: 'asc' });
  });
  it('descending is the reverse of ascending for distinct values', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1 }), { comparator: (a, b) => a.toLowerCase() === b.toLowerCase() }),
        (names) => {
          const data = names.map((patientName) => ({ patientName }));
          const asc = data.sort(compareRxRows({ key: 'patientName', direction: 'asc' })).map((r) => r.patientName);
          const desc = [...data].sort(compareRxRows({ key: 'patientName', direction: 'desc' })).map((r) => r.patientName);
          expect(desc).toEqual([...asc].reverse());
        },
      ),
    );
  });
});

describe('errors', () => {
  it('the zod-free guard accepts exactly the bodies the schema accepts', () => {
    const detail = fc.record({ path: fc.string(), message: fc.string() }, { requiredKeys: [] });
    const nearBody = fc.record(
      {
        error: fc.oneof(
          fc.record(
            {
              code: fc.oneof(fc.constantFrom(...ERROR_CODES), fc.string(), fc.integer()),
              message: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
              details: fc.oneof(fc.array(fc.oneof(detail, fc.string(), fc.constant(null))), fc.constant(null), fc.string()),
              extra: fc.anything(),
            },
            { requiredKeys: [] },
          ),
          fc.array(fc.anything()),
          fc.string(),
          fc.constant(null),
        ),
        status: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(nearBody, fc.anything()), (value) => {
        expect(isErrorBody(value)).toBe(errorBodySchema.safeParse(value).success);
      }),
      { numRuns: 2000 },
    );
  });
  it('keeps only the path and message of each detail, as the schema does', () => {
    const body = { error: { code: 'VALIDATION_FAILED', message: 'Bad.', details: [{ path: 'body.x', message: 'No.', at: 1 }] } };
    expect(normalizeError(body).details).toEqual([{ path: 'body.x', message: 'No.' }]);
  });
  it('normalizes our error body', () => {
    expect(normalizeError({ error: { code: 'CONFLICT', message: 'Already done.' } })).toEqual({
      code: 'CONFLICT',
      message: 'Already done.',
      status: 409,
      details: [],
    });
  });
  it("turns status 'ERROR' into the spec's message", () => {
    expect(normalizeError({ status: 'ERROR' }).message).toBe(STATUS_ERROR_MESSAGE);
  });
  it('falls back for anything else', () => {
    expect(normalizeError(new Error('boom')).message).toBe('boom');
    expect(normalizeError(42, 'Failed to fetch MD offices').message).toBe('Failed to fetch MD offices');
    expect(normalizeError({ error: 'Server said no' }).message).toBe('Server said no');
  });
  it('passes a normalized error through', () => {
    const e = { code: 'NOT_FOUND', message: 'x', status: 404, details: [] };
    expect(normalizeError(e)).toEqual(e);
  });
});

describe('routes', () => {
  it('maps paths to the active tab', () => {
    expect(activeTabForPath('/patient-search')).toBe('patients');
    expect(activeTabForPath('/patients/1')).toBe('patients');
    expect(activeTabForPath('/rx-list')).toBe('rxList');
    expect(activeTabForPath('/new-comments/2')).toBe('newComments');
    expect(activeTabForPath('/prescribe')).toBe('prescribe');
    expect(activeTabForPath('/manage-comms/hcps')).toBe('manageComms');
    expect(activeTabForPath('/action-needed')).toBe('actionNeeded');
    expect(activeTabForPath('/preferences')).toBe('actionNeeded');
    expect(activeTabForPath('/patientsx')).toBe('actionNeeded');
  });
  it('builds encoded paths', () => {
    expect(apiPaths.rxList('u/1')).toBe('/api/mdo/v1/users/u%2F1/rx-list');
    expect(apiPaths.actionNeeded('u1')).toBe('/api/mdo/v2/users/u1/action-needed');
    expect(webPaths.manageCommsPracticeEdit('7')).toBe('/manage-comms/practices/7/edit/details');
    expect(webPaths.passwordReset()).toBe('/password-reset');
  });
  it('defaults skipErxConfirmation to true unless a boolean is given', () => {
    expect(resolveSkipErxConfirmation(undefined)).toBe(true);
    expect(resolveSkipErxConfirmation('false')).toBe(true);
    expect(resolveSkipErxConfirmation(false)).toBe(false);
  });
});

describe('newPasswordRepeated', () => {
  it('wants the repeat to equal the new password, and names the repeat field', async () => {
    const { newPasswordRepeated } = await import('../src/api/auth.ts');
    expect(newPasswordRepeated.matches({ newPassword: 'a-long-password', confirm: 'a-long-password' })).toBe(true);
    expect(newPasswordRepeated.matches({ newPassword: 'a-long-password', confirm: 'a-long-passwore' })).toBe(false);
    expect(newPasswordRepeated.issue).toEqual({ path: ['confirm'], message: 'The two passwords do not match.' });
  });
});
