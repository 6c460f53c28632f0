/**
 * The spec writes US English ("authorization", "authorized"): every timeline line and every conflict message a
 * user can read follows it (issue 21).
 */
import { describe, expect, it } from 'vitest';
import { ACTION_TYPE_LABELS, CONFLICT_MESSAGES, describeEvent, EVENT_TYPES } from '../src/index.ts';

const BRITISH = /authoris|organis|colour|behaviour|cancell(?!ed\b)/i;

describe('user-facing texts use US spelling', () => {
  it('in every timeline line', () => {
    const data = { refills: 2, reason: 'NEED_OFFICE_VISIT', postponedTo: '2026-12-01', category: 'refillAuth', via: 'Fax' };
    const lines = Object.values(EVENT_TYPES).map((type) => describeEvent(type, data));
    expect(lines).toContain('Refill authorized by fax: 2 refill(s)');
    expect(lines.filter((line) => BRITISH.test(line))).toEqual([]);
  });

  it('in every conflict message and category label', () => {
    const texts = [
      ...Object.values(CONFLICT_MESSAGES),
      ...Object.values(ACTION_TYPE_LABELS).flatMap((l) => [l.request, l.category]),
    ];
    expect(texts.filter((text) => BRITISH.test(text))).toEqual([]);
  });
});
