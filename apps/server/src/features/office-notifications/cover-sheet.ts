/**
 * The fax cover sheet (issue 20): one US Letter page, laid out by pdfkit from the contract's lines (counts, the
 * one-time link, the confidentiality footer). Standard fonts only: nothing to embed, a few kilobytes per fax.
 */
import { officeDigestFax } from '@hcp/contract';
import PDFDocument from 'pdfkit';

export type CoverSheetInput = Parameters<typeof officeDigestFax>[0];

export function coverSheetPdf(input: CoverSheetInput, createdAt: Date): Promise<Buffer> {
  const sheet = officeDigestFax(input);
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: 72,
    // A fixed creation date: the same notice gives the same bytes (and no machine clock in the file).
    info: { Title: sheet.title, Producer: 'HCP Portal', Creator: 'HCP Portal', CreationDate: createdAt },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - 144;
  doc.font('Helvetica-Bold').fontSize(22).text('FAX', { width });
  doc.moveDown(0.3).fontSize(16).text(sheet.title, { width });
  doc.moveDown(0.5).font('Helvetica').fontSize(12).text(sheet.intro, { width });
  doc.moveDown(1.2).font('Helvetica-Bold').fontSize(14).text('New requests', { width });
  doc.font('Helvetica').fontSize(13);
  for (const line of sheet.counts) doc.moveDown(0.3).text(line, { width, indent: 18 });
  doc.moveDown(0.8).text(sheet.waiting, { width });
  doc
    .moveDown(1.2)
    .font('Helvetica-Bold')
    .fontSize(13)
    .text(sheet.linkLines[0] ?? '', { width });
  doc
    .moveDown(0.3)
    .font('Courier-Bold')
    .fontSize(14)
    .text(sheet.linkLines[1] ?? '', { width });
  doc.font('Helvetica').fontSize(12);
  for (const line of sheet.linkLines.slice(2)) doc.moveDown(0.3).text(line, { width });
  doc.font('Helvetica-Oblique').fontSize(9);
  // The footer sits at the page's foot; lineBreak false keeps pdfkit from starting a second page.
  let y = doc.page.height - 72 - sheet.footer.length * 13;
  for (const line of sheet.footer) {
    doc.text(line, 72, y, { width, lineBreak: false });
    y += 13;
  }
  doc.end();
  return done;
}
