/** Build-time settings of the web app (Vite env), with working defaults for local use. */
export const webConfig = {
  /** The operations site that opens an order by number (spec §2 Rx list: `?orderNumber=`). */
  operationsOrderUrl: import.meta.env.VITE_OPERATIONS_ORDER_URL ?? 'https://operations.hcp-portal.local/orders',
};

export function operationsOrderHref(orderNumber: string): string {
  const url = new URL(webConfig.operationsOrderUrl);
  url.searchParams.set('orderNumber', orderNumber);
  return url.toString();
}
