/** The text rule of issue 43: what no request may carry anywhere, and what a single line (a name) may not. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasUnsafeCharacters, isSingleLineText, practiceNameSchema } from '../src/index.ts';

const C0_BUT_LINE_BREAKS = [...Array(32).keys()].filter((c) => ![9, 10, 13].includes(c)).map((c) => String.fromCharCode(c));
const BIDI = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
];
/** Text as people write it, in any script, emoji (surrogate pairs) included, with no control character. */
const plain = fc
  .string({ unit: 'grapheme', maxLength: 30 })
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the generator leaves control characters out on purpose.
  .filter((s) => !/[\u0000-\u001f\u007f-\u009f]/.test(s));
const at = (text: string, insert: string, where: number) => {
  const i = Math.min(where, text.length);
  // Never split a surrogate pair of the text itself: insert at a code point boundary.
  const j = i > 0 && /[\ud800-\udbff]/.test(text[i - 1] ?? '') ? i + 1 : i;
  return text.slice(0, j) + insert + text.slice(j);
};

describe('text safety', () => {
  it('takes text in every script, emoji included, and tab and line breaks in free text', () => {
    fc.assert(fc.property(plain, (s) => !hasUnsafeCharacters(s) && !hasUnsafeCharacters(`${s}\t\r\n${s}`)));
    expect(hasUnsafeCharacters('Dr. Ørsted 👩‍⚕️ 中文 العربية')).toBe(false);
  });

  it('refuses NUL, every other C0 control but tab/CR/LF, and lone surrogates, wherever they stand', () => {
    const poison = fc.constantFrom(...C0_BUT_LINE_BREAKS, '\ud800', '\udfff', '\udbff');
    fc.assert(fc.property(plain, poison, fc.nat(40), (s, p, where) => hasUnsafeCharacters(at(s, p, where))));
  });

  it('a single line takes no line break, tab, control or text-direction character', () => {
    const breaker = fc.constantFrom('\r', '\n', '\t', '\u007f', '\u0085', ...BIDI);
    fc.assert(fc.property(plain, breaker, fc.nat(40), (s, b, where) => !isSingleLineText(at(s, b, where))));
    expect(isSingleLineText('Morgan Family Medicine — Suite 4')).toBe(true);
  });

  it('a practice name with a line break or a reversed span is refused with a message for people', () => {
    const result = practiceNameSchema.safeParse('Lake Clinic\r\nBcc: someone@example.com');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'Use one line of plain text: no line breaks, tabs or text-direction characters.',
    );
    expect(practiceNameSchema.safeParse('Lake \u202eciniLC').success).toBe(false);
    expect(practiceNameSchema.safeParse('Lake Clinic').data).toBe('Lake Clinic');
  });
});
