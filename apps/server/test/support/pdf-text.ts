/**
 * What a PDF says, line by line, and how many pages it has: enough to read our own cover sheet back (pdfkit's
 * deflated content streams, text as hex strings in the standard fonts' WinAnsi encoding).
 */
import { inflateSync } from 'node:zlib';

/** WinAnsi's 0x80–0x9F characters we print (Node's windows-1252 decoder drops them); the rest is Latin-1. */
const WIN_ANSI: Record<number, string> = { 145: '‘', 146: '’', 147: '“', 148: '”', 149: '•', 150: '–', 151: '—' };
const winAnsi = { decode: (bytes: Buffer) => [...bytes].map((b) => WIN_ANSI[b] ?? String.fromCharCode(b)).join('') };

export function pdfPages(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
}

/**
 * Each stream is read by its dictionary's /Length, not up to the next "endstream": deflated bytes end in a CR
 * one time in 256, and a pattern's optional `\r?` before the end-of-line then ate the data's last byte (a flaky
 * test: the cover sheet "had no link").
 */
export function pdfText(pdf: Buffer): string[] {
  const lines: string[] = [];
  const latin1 = pdf.toString('latin1');
  for (const match of latin1.matchAll(/\/Length (\d+)\b[^>]*>>\s*stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, start + Number(match[1]))).toString('latin1');
    } catch {
      continue; // not a deflated content stream (fonts, metadata)
    }
    for (const line of content.split('\n')) {
      if (!/T[Jj]$/.test(line)) continue;
      const parts = [...line.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => winAnsi.decode(Buffer.from(h[1] ?? '', 'hex')));
      lines.push(parts.join(''));
    }
  }
  return lines;
}
