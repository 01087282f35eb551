// The installed app's icons, drawn from the product's mark (client/public/favicon.svg) with sharp:
//   node scripts/app-icons.mjs   (writes client/public/icons/*.png; the results are committed)
// "any" icons are the mark as it is, rounded corners and all; the maskable one fills the square
// with the mark's blue and keeps the house inside the middle 80 %, the safe zone a launcher's
// mask (a circle, a squircle) never cuts.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const out = fileURLToPath(new URL('../client/public/icons', import.meta.url));
mkdirSync(out, { recursive: true });

const house = `
  <path d="M7 16.5 16 9l9 7.5" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>
  <path d="M10 15v8.5h12V15" fill="none" stroke="#fff" stroke-width="2.6" stroke-linejoin="round"/>
  <path d="M14.5 23.5v-4.5h3v4.5" fill="#fff"/>`;
const any = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4c6ef5"/>${house}</svg>`;
// The house scaled to 70 % around the centre: well inside the 80 % safe zone.
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="#4c6ef5"/><g transform="translate(16 16.5) scale(0.7) translate(-16 -16.5)">${house}</g></svg>`;

const icons = [
  { file: 'icon-192.png', svg: any, size: 192 },
  { file: 'icon-512.png', svg: any, size: 512 },
  { file: 'maskable-512.png', svg: maskable, size: 512 },
  { file: 'apple-touch-icon.png', svg: maskable, size: 180 },
];
for (const { file, svg, size } of icons) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(out, file));
  console.log(`${file} ${size}x${size}`);
}
