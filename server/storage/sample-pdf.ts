/**
 * A tiny valid one-page PDF with its title written on the page: the demo data's documents (so
 * "View" opens something real) and the browser tests' uploads (so pdf.js has text to draw).
 */
export function onePagePdf(title: string): Buffer {
  const text = title.replace(/[()\\]/g, '');
  const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  return pdfOfObjects(objects);
}

/**
 * A PDF of these objects, numbered from 1 (the first is the catalog), with a correct
 * cross-reference table: for documents made by hand, byte by byte (strings are latin1; a Buffer
 * goes in as it is, as a stream's binary contents do).
 */
export function pdfOfObjects(
  objects: ReadonlyArray<string | Buffer | ReadonlyArray<string | Buffer>>,
): Buffer {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = chunks[0]?.length ?? 0;
  const push = (part: string | Buffer) => {
    const chunk = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    chunks.push(chunk);
    length += chunk.length;
  };
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(length);
    push(`${i + 1} 0 obj\n`);
    for (const part of Array.isArray(object) ? object : [object]) push(part as string | Buffer);
    push('\nendobj\n');
  });
  const xref = length;
  let table = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) table += `${String(offset).padStart(10, '0')} 00000 n \n`;
  push(`${table}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(chunks);
}
