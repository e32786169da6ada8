/**
 * The block codecs of the Avro object container file specification: null, deflate, snappy, zstandard, bzip2 and
 * xz, each decoding to at most a given number of bytes (a block's declared or compressed size is never trusted to
 * size an allocation), and saying whether it checks the data against a checksum.
 *
 * | codec     | checksum verified here                                   | written here |
 * |-----------|----------------------------------------------------------|--------------|
 * | null      | none                                                     | yes          |
 * | deflate   | none (Avro's deflate is raw: no zlib Adler-32)            | yes          |
 * | snappy    | CRC32 (big-endian) of the uncompressed block, per block   | yes: default |
 * | bzip2     | CRC32 of every bzip2 block and of the stream              | no           |
 * | xz        | the stream's CRC32 or CRC64 check (none when it has none) | no           |
 * | zstandard | none (the optional frame checksum is not verified)        | no           |
 */
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import Bunzip from 'seek-bzip';
import * as snappy from 'snappyjs';
import { Decompress as ZstdDecompress } from 'fzstd';
import { createRequire } from 'node:module';

// xz-decompress is a UMD bundle whose named export Node's ESM loader cannot see
const { XzReadableStream } = createRequire(import.meta.url)(
  'xz-decompress',
) as typeof import('xz-decompress');

export const OCF_CODECS = ['null', 'deflate', 'snappy', 'zstandard', 'bzip2', 'xz'] as const;
export type OcfCodecName = (typeof OCF_CODECS)[number];
/** The codecs writeEventsFile writes. */
export type EventsFileCodec = 'null' | 'deflate' | 'snappy';

export const isOcfCodec = (name: string): name is OcfCodecName =>
  (OCF_CODECS as readonly string[]).includes(name);

/** Why a block's data cannot be used: it does not decompress, is too large, or fails its checksum. */
export class CodecError extends Error {
  constructor(
    message: string,
    /** the data decompressed but does not match its checksum */
    readonly checksum = false,
  ) {
    super(message);
  }
}

/** What a codec protects a block with, in words; null when nothing is verified. */
export function codecProtection(codec: OcfCodecName): string | null {
  switch (codec) {
    case 'snappy':
      return 'a CRC32 of each block';
    case 'bzip2':
      return 'the CRC32 of each bzip2 block and of the stream';
    case 'xz':
      return "the xz stream's CRC32 or CRC64 check, when it has one";
    default:
      return null;
  }
}

/** Compresses a block for writing. */
export function encodeBlock(codec: EventsFileCodec, raw: Buffer): Buffer {
  if (codec === 'null') return raw;
  if (codec === 'deflate') return deflateRawSync(raw);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(raw) >>> 0);
  return Buffer.concat([Buffer.from(snappy.compress(raw)), checksum]);
}

const tooLarge = (maxLength: number): CodecError =>
  new CodecError(`it decompresses to more than ${maxLength} bytes, the most a block may hold here`);

/**
 * Decompresses one block's data to at most `maxLength` bytes. Throws CodecError (`checksum` true when the data
 * decompressed but does not match its checksum); never anything else.
 */
export async function decodeBlock(codec: OcfCodecName, data: Buffer, maxLength: number): Promise<Buffer> {
  try {
    switch (codec) {
      case 'null':
        return data;
      case 'deflate':
        try {
          return inflateRawSync(data, { maxOutputLength: maxLength });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(maxLength);
          throw new CodecError(`its deflate data does not inflate (${(error as Error).message})`);
        }
      case 'snappy':
        return decodeSnappy(data, maxLength);
      case 'zstandard':
        return decodeZstd(data, maxLength);
      case 'bzip2':
        return decodeBzip2(data, maxLength);
      case 'xz':
        return await decodeXz(data, maxLength);
    }
  } catch (error) {
    if (error instanceof CodecError) throw error;
    throw new CodecError(`its ${codec} data does not decompress (${(error as Error).message})`);
  }
}

function decodeSnappy(data: Buffer, maxLength: number): Buffer {
  if (data.length < 4)
    throw new CodecError(
      `its snappy data is ${data.length} byte(s): too short for the 4-byte CRC32 that ends it`,
    );
  const compressed = data.subarray(0, data.length - 4);
  let raw: Buffer;
  try {
    raw = Buffer.from(snappy.uncompress(compressed, maxLength));
  } catch (error) {
    const message = (error as Error).message;
    if (/too big/.test(message)) throw tooLarge(maxLength);
    throw new CodecError(`its snappy data does not decompress (${message})`);
  }
  const expected = data.readUInt32BE(data.length - 4);
  const actual = crc32(raw) >>> 0;
  if (actual !== expected)
    throw new CodecError(
      `its snappy data decompresses but its CRC32 is ${hex32(actual)}, not the ${hex32(expected)} written after it: the block was damaged`,
      true,
    );
  return raw;
}

const hex32 = (n: number): string => `0x${n.toString(16).padStart(8, '0')}`;

/**
 * Walks the zstd frames first (fzstd would allocate a frame's declared window, up to 2 GiB, before reading any of
 * it): a window or content size over the bound is refused without decoding.
 */
function decodeZstd(data: Buffer, maxLength: number): Buffer {
  let at = 0;
  while (at < data.length) {
    if (at + 4 > data.length) throw new CodecError(`its zstandard data ends inside a frame's magic number`);
    const magic = data.readUInt32LE(at);
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      // a skippable frame: 4-byte size after the magic
      if (at + 8 > data.length) throw new CodecError('its zstandard data ends inside a skippable frame');
      at += 8 + data.readUInt32LE(at + 4);
      continue;
    }
    if (magic !== 0xfd2fb528)
      throw new CodecError(`its zstandard data has ${hex32(magic)} where a frame starts, not 0xfd2fb528`);
    const descriptor = data[at + 4];
    if (descriptor === undefined) throw new CodecError('its zstandard data ends inside a frame header');
    const contentSizeFlag = descriptor >> 6;
    const singleSegment = (descriptor >> 5) & 1;
    const hasChecksum = (descriptor >> 2) & 1;
    const dictIdBytes = [0, 1, 2, 4][descriptor & 3]!;
    let p = at + 5;
    let window = 0;
    if (!singleSegment) {
      const wd = data[p++];
      if (wd === undefined) throw new CodecError('its zstandard data ends inside a frame header');
      const base = 2 ** (10 + (wd >> 3));
      window = base + (base / 8) * (wd & 7);
    }
    p += dictIdBytes;
    const fcsBytes = [singleSegment ? 1 : 0, 2, 4, 8][contentSizeFlag]!;
    if (p + fcsBytes > data.length) throw new CodecError('its zstandard data ends inside a frame header');
    let contentSize = 0;
    for (let i = fcsBytes - 1; i >= 0; i -= 1) contentSize = contentSize * 256 + data[p + i]!;
    if (fcsBytes === 2) contentSize += 256;
    p += fcsBytes;
    if (Math.max(window, contentSize) > maxLength)
      throw new CodecError(
        `its zstandard frame at byte ${at} of the block declares a ${Math.max(window, contentSize)}-byte ` +
          `${window > contentSize ? 'window' : 'content'}, more than the ${maxLength} bytes a block may hold here`,
      );
    // blocks: 3-byte little-endian headers (last flag, type, size)
    for (;;) {
      if (p + 3 > data.length) throw new CodecError(`its zstandard data ends inside a block header`);
      const header = data[p]! | (data[p + 1]! << 8) | (data[p + 2]! << 16);
      const last = header & 1;
      const type = (header >> 1) & 3;
      const size = header >>> 3;
      if (type === 3) throw new CodecError(`its zstandard data has a block of the reserved type 3`);
      p += 3 + (type === 1 ? 1 : size);
      if (last) break;
    }
    at = p + (hasChecksum ? 4 : 0);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const stream = new ZstdDecompress((chunk) => {
    total += chunk.length;
    if (total > maxLength) throw tooLarge(maxLength);
    chunks.push(chunk);
  });
  stream.push(data, true);
  return Buffer.concat(chunks, total);
}

function decodeBzip2(data: Buffer, maxLength: number): Buffer {
  const output = Buffer.alloc(Math.min(maxLength, Math.max(1024, data.length * 8)));
  let out = output;
  let length = 0;
  let pos = 0;
  Bunzip.decode(
    {
      readByte: () => {
        if (pos >= data.length) throw new CodecError('its bzip2 data ends before its stream does');
        return data[pos++]!;
      },
      read: (buffer: Uint8Array, offset: number, length: number) => {
        const n = Math.min(length, data.length - pos);
        if (n <= 0) return -1;
        buffer.set(data.subarray(pos, pos + n), offset);
        pos += n;
        return n;
      },
      seek: (to: number) => {
        pos = to;
      },
      eof: () => pos >= data.length,
    },
    {
      writeByte: (byte: number) => {
        if (length === out.length) {
          if (length >= maxLength) throw tooLarge(maxLength);
          const bigger = Buffer.alloc(Math.min(maxLength, out.length * 2));
          out.copy(bigger);
          out = bigger;
        }
        out[length++] = byte;
      },
    },
    true,
  );
  return out.subarray(0, length);
}

async function decodeXz(data: Buffer, maxLength: number): Promise<Buffer> {
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(data));
      controller.close();
    },
  });
  const reader = new XzReadableStream(input).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxLength) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxLength);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
