/**
 * Every key the client stores (spec §3), in one place. Session tokens live in localStorage because the
 * signed-in shell is defined by them (spec §2); the MFA hand-over and appeal data live in sessionStorage
 * so they die with the tab.
 */

export const STORAGE_KEYS = {
  accessToken: 'hcp.accessToken',
  refreshToken: 'hcp.refreshToken',
  rememberMeToken: 'hcp.rememberMeToken',
  userId: 'hcp.userId',
  maskedEmail: 'hcp.maskedEmail',
  maskedPhone: 'hcp.maskedPhone',
  userToken: 'hcp.userToken',
  /** The ways the pending sign-in may take its second step, comma-separated (issue 48); absent: a mailed code. */
  mfaMethods: 'hcp.mfaMethods',
  appealsData: 'hcp.appealsData',
  appealsKey: 'hcp.appealsKey',
  appealsNpi: 'hcp.appealsNpi',
  tutorialDismissed: 'hcp.tutorialDismissed',
  /** The tutorial was closed in this tab's session: it does not open by itself again (spec §4). */
  tutorialClosed: 'hcp.tutorialClosed',
  brand: 'hcp.brand',
  /** Each user's Action Needed view on this browser, {userId: 'cards' | 'queue'} (issue 22). */
  actionNeededView: 'hcp.actionNeededView',
} as const;
export type StorageKey = keyof typeof STORAGE_KEYS;

const SESSION_SCOPED: ReadonlySet<StorageKey> = new Set([
  'maskedEmail',
  'maskedPhone',
  'userToken',
  'mfaMethods',
  'appealsData',
  'appealsKey',
  'appealsNpi',
  'tutorialClosed',
]);

function area(key: StorageKey): Storage {
  return SESSION_SCOPED.has(key) ? window.sessionStorage : window.localStorage;
}

export const storage = {
  get(key: StorageKey): string | null {
    try {
      return area(key).getItem(STORAGE_KEYS[key]);
    } catch {
      return null;
    }
  },
  set(key: StorageKey, value: string): void {
    area(key).setItem(STORAGE_KEYS[key], value);
  },
  remove(key: StorageKey): void {
    area(key).removeItem(STORAGE_KEYS[key]);
  },
};

export interface StoredSession {
  accessToken: string;
  refreshToken: string | null;
  userId: string;
}

export function readSession(): StoredSession | null {
  const accessToken = storage.get('accessToken');
  const userId = storage.get('userId');
  if (!accessToken || !userId) return null;
  return { accessToken, userId, refreshToken: storage.get('refreshToken') };
}

export function saveSession(tokens: {
  accessToken: string;
  refreshToken: string;
  userID?: string;
  rememberMeToken?: string;
}): void {
  storage.set('accessToken', tokens.accessToken);
  storage.set('refreshToken', tokens.refreshToken);
  if (tokens.userID) storage.set('userId', tokens.userID);
  if (tokens.rememberMeToken) storage.set('rememberMeToken', tokens.rememberMeToken);
}

/** Logout clears the three session values (spec §4); the remember-me token outlives the session. */
export function clearSession(): void {
  storage.remove('accessToken');
  storage.remove('refreshToken');
  storage.remove('userId');
}
