// Small media files for the preview's attachment tests: a solid-colour PNG, and a WebM video
// encoded by the browser (WebCodecs VP8) and muxed here, with its duration in the header (what a
// MediaRecorder file lacks), so a <video> of it has a finite duration to check.
import { deflateSync } from 'node:zlib';

/** A solid w x h PNG of one colour. */
export function png(w, h, [r, g, b]) {
  const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
  const crc = (buf) => { let c = 0xffffffff; for (const x of buf) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type, data) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    out.writeUInt32BE(crc(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 2;
  const raw = Buffer.alloc(h * (1 + 3 * w));
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw.set([r, g, b], y * (1 + 3 * w) + 1 + 3 * x);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

// EBML: an element is its id, its size (here always 8 bytes: 0x01 + 7), its content.
const size8 = (n) => { const b = Buffer.alloc(8); b[0] = 1; b.writeUIntBE(n, 2, 6); return b; };
const elem = (id, ...content) => { const body = Buffer.concat(content.map((c) => (Buffer.isBuffer(c) ? c : Buffer.from(c)))); return Buffer.concat([Buffer.from(id, 'hex'), size8(body.length), body]); };
const uint = (id, n) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return elem(id, b); };
const float = (id, x) => { const b = Buffer.alloc(8); b.writeDoubleBE(x); return elem(id, b); };

/**
 * A WebM of `frames` frames at `fps` (each a solid colour), `width` x `height`, encoded in `page`
 * (a page of the test's browser) with VideoEncoder. Its duration is frames / fps seconds.
 */
export async function webm(page, { width = 64, height = 48, frames = 10, fps = 10 } = {}) {
  const chunks = await page.evaluate(async ({ width, height, frames, fps }) => {
    const out = [];
    let failed;
    const enc = new VideoEncoder({ output: (c) => { const d = new Uint8Array(c.byteLength); c.copyTo(d); out.push({ t: c.timestamp, key: c.type === 'key', d: Array.from(d) }); }, error: (e) => { failed = String(e); } });
    enc.configure({ codec: 'vp8', width, height, bitrate: 200_000, framerate: fps });
    const canvas = new OffscreenCanvas(width, height);
    const g = canvas.getContext('2d');
    for (let i = 0; i < frames; i++) {
      g.fillStyle = `hsl(${(i * 360) / frames}, 80%, 50%)`;
      g.fillRect(0, 0, width, height);
      const f = new VideoFrame(canvas, { timestamp: Math.round((i * 1e6) / fps) });
      enc.encode(f, { keyFrame: i === 0 });
      f.close();
    }
    await enc.flush();
    if (failed) throw new Error(failed);
    return out;
  }, { width, height, frames, fps });
  const blocks = chunks.map((c) => {
    const head = Buffer.alloc(4);
    head[0] = 0x81; // track 1
    head.writeInt16BE(Math.round(c.t / 1000), 1); // ms from the cluster's timecode (0)
    head[3] = c.key ? 0x80 : 0;
    return elem('a3', head, Buffer.from(c.d));
  });
  return Buffer.concat([
    elem('1a45dfa3', uint('4286', 1), uint('42f7', 1), uint('42f2', 4), uint('42f3', 8), elem('4282', 'webm'), uint('4287', 2), uint('4285', 2)),
    elem('18538067',
      elem('1549a966', uint('2ad7b1', 1_000_000), float('4489', (1000 * frames) / fps), elem('4d80', 'shardwise-test'), elem('5741', 'shardwise-test')),
      elem('1654ae6b', elem('ae', uint('d7', 1), uint('73c5', 1), uint('83', 1), elem('86', 'V_VP8'), elem('e0', uint('b0', width), uint('ba', height)))),
      elem('1f43b675', uint('e7', 0), ...blocks)),
  ]);
}
