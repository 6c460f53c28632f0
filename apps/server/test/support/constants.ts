/** The fixed clock of the test seed: tests that read dates compare against it. */
export const TEST_NOW = new Date('2026-11-20T15:00:00.000Z');

export const TEMPLATE_DBS = { empty: 'hcp_test_tpl_empty', demo: 'hcp_test_tpl_demo' } as const;

/** PGlite setup hung once in a multi-instance script (STACK-NOTES): fail loudly instead of stalling CI. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms: ${what}`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
