/** Messages people read say what to do, never how the code sees it (issue 21: 'Must be a valid id.'). */
import { describe, expect, it } from 'vitest';
import { idSchema, prescriptionOrderSchema } from '../src/index.ts';

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe('messages for people', () => {
  it('an id nobody picked asks to choose, naming what', () => {
    expect(messagesOf(idSchema.safeParse(''))).toEqual(['Choose one from the list.']);
    expect(messagesOf(prescriptionOrderSchema.shape.productId.safeParse(''))).toEqual(['Choose a product.']);
  });

  it('no schema message of the contract reads like a developer’s', async () => {
    // Vite's glob import (the contract has no Node or Vite types: it runs in browsers too).
    const sources = (import.meta as unknown as { glob: (pattern: string, options: object) => Record<string, string> }).glob(
      '../src/**/*.ts',
      { query: '?raw', import: 'default', eager: true },
    );
    expect(Object.keys(sources).length).toBeGreaterThan(20);
    const offending = Object.entries(sources).flatMap(([file, text]) =>
      [...text.matchAll(/message: '([^']*)'/g)]
        .map((m) => m[1] as string)
        .filter((message) => /must be a valid|invalid input|expected (a|an) |\bnull\b|undefined|\buuid\b/i.test(message))
        .map((message) => `${file}: ${message}`),
    );
    expect(offending).toEqual([]);
  });
});
