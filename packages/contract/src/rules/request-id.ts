/** The 24-character request id sent with every call (spec §7, §9); the server uses it as idempotency key. */

export const REQUEST_ID_LENGTH = 24;
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9]{24}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Web Crypto exists in browsers and Node 20; the contract stays free of DOM and Node typings. */
interface RandomSource {
  getRandomValues(array: Uint8Array): Uint8Array;
}
const randomSource = (): RandomSource => (globalThis as unknown as { crypto: RandomSource }).crypto;

export function generateRequestId(): string {
  // 62 does not divide 256, so reject bytes >= 248 to keep every character equally likely.
  let id = '';
  while (id.length < REQUEST_ID_LENGTH) {
    const bytes = new Uint8Array(REQUEST_ID_LENGTH * 2);
    randomSource().getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte < 248 && id.length < REQUEST_ID_LENGTH) id += ALPHABET[byte % 62];
    }
  }
  return id;
}

export const isRequestId = (value: unknown): value is string => typeof value === 'string' && REQUEST_ID_PATTERN.test(value);
