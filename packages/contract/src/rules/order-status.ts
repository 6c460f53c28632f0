/** Order-status display text (spec §4). */

export const ORDER_STATUS_PRICE_VERIFICATION = 'Price Verification';
export const ORDER_STATUS_PENDING_PAYMENT_APPROVAL = 'Pending payment approval';

export function formatPrice(price: number | string | null | undefined): string {
  const value = typeof price === 'string' ? Number.parseFloat(price) : price;
  if (value === null || value === undefined || !Number.isFinite(value)) return '0.00';
  return value.toFixed(2);
}

export function formatOrderStatus(status: string | null | undefined, price: number | string | null | undefined): string {
  if (status === ORDER_STATUS_PRICE_VERIFICATION) return `Pending payment (cash: $${formatPrice(price)})`;
  if (status === ORDER_STATUS_PENDING_PAYMENT_APPROVAL) return `Pending payment (copay: $${formatPrice(price)})`;
  return status ?? '';
}
