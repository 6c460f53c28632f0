import { afterEach, describe, expect, it, vi } from 'vitest';
import { setErrorReporter } from '../../../lib/error-reporting.ts';
import { saveSession } from '../../../lib/storage.ts';
import { getNewComments } from './get-new-comments.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  setErrorReporter(() => {});
});

describe('getNewComments (spec §8)', () => {
  it('reports a failed fetch and answers an empty list', async () => {
    saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ error: { code: 'INTERNAL', message: 'Down.' } }), { status: 500 })),
    );
    const reports: string[] = [];
    setErrorReporter((name) => reports.push(name));
    expect(await getNewComments('u')).toEqual({ doctors: [], total: 0 });
    expect(reports).toEqual(['New Comments Fetch Error']);
  });
});
