import { type ActionNeededViewName, isActionNeededView } from '@hcp/contract';
import { storage } from '../../../lib/storage.ts';

function stored(): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(storage.get('actionNeededView') ?? '{}');
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The view this user last chose on this browser; the spec's cards until they choose. */
export function rememberedView(userId: string): ActionNeededViewName {
  const view = stored()[userId];
  return isActionNeededView(view) ? view : 'cards';
}

export function rememberView(userId: string, view: ActionNeededViewName): void {
  try {
    storage.set('actionNeededView', JSON.stringify({ ...stored(), [userId]: view }));
  } catch {
    // Storage full or blocked: the choice still holds in the address for this visit.
  }
}
