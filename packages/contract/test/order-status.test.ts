import { describe, expect, it } from 'vitest';
import { formatOrderStatus } from '../src/index.ts';

describe('formatOrderStatus', () => {
  it('shows price verification as a cash payment', () => {
    expect(formatOrderStatus('Price Verification', 12.5)).toBe('Pending payment (cash: $12.50)');
  });
  it('shows pending payment approval as a copay', () => {
    expect(formatOrderStatus('Pending payment approval', '7')).toBe('Pending payment (copay: $7.00)');
  });
  it('shows any other status as is', () => {
    expect(formatOrderStatus('Shipped', 10)).toBe('Shipped');
    expect(formatOrderStatus(null, 10)).toBe('');
  });
  it('shows $0.00 when the price is missing', () => {
    expect(formatOrderStatus('Price Verification', null)).toBe('Pending payment (cash: $0.00)');
  });
});
