import { describe, expect, it } from 'vitest';
import {
  describeDelivery,
  EVENT_TYPES,
  retryDelayMs,
  WEBHOOK_EVENT_OF_TIMELINE,
  WEBHOOK_EVENTS,
  WEBHOOK_RETRY,
  webhookEndpointInputSchema,
} from '../src/index.ts';

describe('retryDelayMs', () => {
  it('doubles from the base, is capped, and jitters between half and the whole ceiling', () => {
    expect(retryDelayMs(1, 1)).toBe(WEBHOOK_RETRY.baseMs);
    expect(retryDelayMs(2, 1)).toBe(WEBHOOK_RETRY.baseMs * 2);
    expect(retryDelayMs(3, 0)).toBe(WEBHOOK_RETRY.baseMs * 2);
    expect(retryDelayMs(50, 1)).toBe(WEBHOOK_RETRY.capMs);
    expect(retryDelayMs(50, 0)).toBe(WEBHOOK_RETRY.capMs / 2);
    for (const random of [-1, 0.3, 7]) {
      const d = retryDelayMs(4, random);
      expect(d).toBeGreaterThanOrEqual(WEBHOOK_RETRY.baseMs * 4);
      expect(d).toBeLessThanOrEqual(WEBHOOK_RETRY.baseMs * 8);
    }
  });

  it('spreads a day of retries over about thirty attempts, never more often than the base', () => {
    let elapsed = 0;
    let attempts = 0;
    while (elapsed < WEBHOOK_RETRY.giveUpMs) elapsed += retryDelayMs(++attempts, 1);
    expect(attempts).toBeGreaterThan(20);
    expect(attempts).toBeLessThan(40);
  });
});

describe('webhook events', () => {
  it('every decision of the timeline is a webhook event, and every webhook event has a decision', () => {
    const decisions = Object.values(WEBHOOK_EVENT_OF_TIMELINE);
    expect(new Set(decisions)).toEqual(new Set(WEBHOOK_EVENTS));
    expect(WEBHOOK_EVENT_OF_TIMELINE[EVENT_TYPES.pharmacyRequested]).toBeUndefined();
    expect(WEBHOOK_EVENT_OF_TIMELINE[EVENT_TYPES.received]).toBeUndefined();
  });

  it('an endpoint needs a full http(s) address and at least one known event', () => {
    expect(webhookEndpointInputSchema.safeParse({ url: 'https://p.example/h', events: ['refill.denied'] }).success).toBe(true);
    expect(webhookEndpointInputSchema.safeParse({ url: 'javascript:alert(1)', events: ['refill.denied'] }).success).toBe(false);
    expect(webhookEndpointInputSchema.safeParse({ url: 'https://p.example/h', events: [] }).success).toBe(false);
  });
});

describe('describeDelivery', () => {
  const time = (iso: string) => iso.slice(11, 16);
  const sentAt = '2026-11-24T10:02:00.000Z';
  it('reads as the timeline shows it', () => {
    expect(
      describeDelivery({ status: 'delivered', sentAt, deliveredAt: '2026-11-24T10:03:00.000Z', nextAttemptAt: null }, time),
    ).toBe('Sent to the pharmacy 10:02 · delivered 10:03');
    expect(
      describeDelivery({ status: 'failing', sentAt, deliveredAt: null, nextAttemptAt: '2026-11-24T10:40:00.000Z' }, time),
    ).toBe('Sent to the pharmacy 10:02 · delivery failing, next try 10:40');
    expect(describeDelivery({ status: 'dead', sentAt, deliveredAt: null, nextAttemptAt: null }, time)).toBe(
      'Sent to the pharmacy 10:02 · delivery failed; an administrator can send it again',
    );
    expect(describeDelivery({ status: 'sending', sentAt, deliveredAt: null, nextAttemptAt: null }, time)).toBe(
      'Sent to the pharmacy 10:02 · sending',
    );
  });
});
