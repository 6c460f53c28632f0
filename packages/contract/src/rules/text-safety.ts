/**
 * Characters no text we take may hold (issue 43), one rule for the server's guard and the forms:
 *
 * - anywhere (every string of every request): NUL and the other C0 control characters except tab, line feed and
 *   carriage return, and lone UTF-16 surrogates. PostgreSQL cannot store NUL in text nor a lone surrogate in
 *   jsonb, a fax or a mail cannot show them, and FHIR forbids them in strings too ("Strings SHALL NOT contain
 *   Unicode character points below 32, except for u0009, u000D and u000A").
 * - in a single line (names, addresses): no control character at all (tab, CR and LF included: they would add a
 *   line to a mail subject or a fax cover sheet) and no bidirectional formatting character (U+202A-U+202E,
 *   U+2066-U+2069, U+200E, U+200F, U+061C), which can make a name read backwards.
 */

/** C0 controls but tab, LF and CR. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what this rule is for.
const C0_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
/** Every C0 and C1 control, DEL, and the bidirectional formatting characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what this rule is for.
const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** A surrogate that is not half of a pair (a loop, not a lookbehind: older Safari cannot parse one). */
function hasLoneSurrogate(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = value.charCodeAt(i + 1);
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i += 1;
    else return true;
  }
  return false;
}

export const TEXT_SAFETY_MESSAGES = {
  unsafe: 'Remove the control characters (or broken characters) from this text.',
  singleLine: 'Use one line of plain text: no line breaks, tabs or text-direction characters.',
} as const;

export function hasUnsafeCharacters(value: string): boolean {
  return C0_BUT_LINE_BREAKS.test(value) || hasLoneSurrogate(value);
}

const NOT_ONE_LINE_RUNS = new RegExp(`(?:${NOT_ONE_LINE.source})+`, 'g');

/**
 * Text as one line for a mail subject or a printed line: every control and text-direction character becomes a space.
 * Names are refused with them at the door (`isSingleLineText`); this keeps one stored before that rule from adding a
 * line to a mail subject or turning a fax cover sheet's text around.
 */
export function asOneLine(value: string): string {
  return value.replace(NOT_ONE_LINE_RUNS, ' ').replace(/ {2,}/g, ' ').trim();
}

export function isSingleLineText(value: string): boolean {
  return !NOT_ONE_LINE.test(value) && !hasUnsafeCharacters(value);
}
