/**
 * Draws build/icon.png (1024×1024), the console's application icon: the site's crown mark (the
 * favicon in src-renderer/index.html) in white on the site's near-black. electron-builder derives
 * the .ico, .icns and Linux sizes from it. Run: node scripts/make-console-icon.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

const SIZE = 1024;
const SCALE = SIZE / 32;
const BACKGROUND = [0x0b, 0x0c, 0x0c];
const FOREGROUND = [0xff, 0xff, 0xff];
/** The favicon's path in its 32×32 box: a base bar and the crown above it. */
const POLYGONS: [number, number][][] = [
  [[5, 24], [27, 24], [27, 27], [5, 27]],
  [[5, 21], [7.5, 10], [12.5, 15.5], [16, 6], [19.5, 15.5], [24.5, 10], [27, 21]],
];

function inside(x: number, y: number, polygon: [number, number][]): boolean {
  let hit = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const rows: Buffer[] = [];
for (let y = 0; y < SIZE; y += 1) {
  const row = Buffer.alloc(1 + SIZE * 3); // filter byte 0, then RGB
  for (let x = 0; x < SIZE; x += 1) {
    const px = (x + 0.5) / SCALE;
    const py = (y + 0.5) / SCALE;
    const colour = POLYGONS.some((p) => inside(px, py, p)) ? FOREGROUND : BACKGROUND;
    row.set(colour, 1 + x * 3);
  }
  rows.push(row);
}
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
const target = path.resolve(import.meta.dirname, '..', 'build', 'icon.png');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, png);
console.log(`wrote ${path.relative(process.cwd(), target)} (${png.length} bytes)`);
