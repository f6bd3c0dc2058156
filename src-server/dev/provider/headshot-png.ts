import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

// Generated rather than bundled so the provider has no binary assets and never points at the
// internet; a real PNG (not SVG) because the thumbnails API promises format=Png.

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

function hueToRgb(hue: number, saturation: number, lightness: number): [number, number, number] {
  const c = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const h = hue / 60;
  const x = c * (1 - Math.abs((h % 2) - 1));
  const [r, g, b] = h < 1 ? [c, x, 0] : h < 2 ? [x, c, 0] : h < 3 ? [0, c, x] : h < 4 ? [0, x, c] : h < 5 ? [x, 0, c] : [c, 0, x];
  const m = lightness - c / 2;
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}

/** A square head-and-shoulders silhouette whose background colour is derived from the seed. */
export function renderHeadshotPng(seed: string, size = 150): Buffer {
  const hue = createHash('sha256').update(seed).digest().readUInt16BE(0) % 360;
  const background = hueToRgb(hue, 0.55, 0.45);
  const figure = hueToRgb(hue, 0.35, 0.85);
  const s = size / 150;

  const rowLength = 1 + size * 3;
  const raw = Buffer.alloc(rowLength * size);
  for (let y = 0; y < size; y += 1) {
    raw[y * rowLength] = 0; // filter: none
    for (let x = 0; x < size; x += 1) {
      const inHead = (x - 75 * s) ** 2 + (y - 58 * s) ** 2 <= (30 * s) ** 2;
      const inShoulders = ((x - 75 * s) / (58 * s)) ** 2 + ((y - 150 * s) / (52 * s)) ** 2 <= 1;
      const [r, g, b] = inHead || inShoulders ? figure : background;
      const offset = y * rowLength + 1 + x * 3;
      raw[offset] = r;
      raw[offset + 1] = g;
      raw[offset + 2] = b;
    }
  }

  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  header[10] = 0;
  header[11] = 0;
  header[12] = 0;

  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
