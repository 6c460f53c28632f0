/**
 * Session analytics adapter (spec §4: logout stops the analytics identity). No-op by default; a real
 * provider can be plugged in with `setAnalytics` without touching the screens.
 */
export interface Analytics {
  identify(userId: string): void;
  reset(): void;
}

let current: Analytics = { identify() {}, reset() {} };

export const analytics: Analytics = {
  identify: (userId) => current.identify(userId),
  reset: () => current.reset(),
};

export function setAnalytics(next: Analytics): void {
  current = next;
}
