import { describe, expect, it } from 'vitest';
import {
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
