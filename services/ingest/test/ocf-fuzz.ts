// Mutation fuzzing of events files through file ingest (not a test file itself: the fuzz test and
// bench/ocf-fuzz.bench.ts run it). Each input is a valid events file with one seeded mutation: bit flips,
// truncation, inserted bytes, or a huge declared count or length written over a block's header or a record.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeEventsFile, type EventsFileCodec, type TableEvent } from '@table-audit/schemas';
import { ingestFiles, type IngestInput, type IngestPipeline, type IngestResult } from '../src/index.ts';

export const MUTATIONS = ['bit-flip', 'truncate', 'insert', 'huge-count', 'huge-length'] as const;
export type Mutation = (typeof MUTATIONS)[number];

export interface FuzzOptions {
  seed: number;
  inputs: number;
  codecs: readonly EventsFileCodec[];
  events: readonly TableEvent[];
  /** uncompressed bytes per block of the base files (small: many blocks) */
  blockSize?: number;
}

export interface FuzzProblem {
  input: number;
  codec: EventsFileCodec;
  mutation: string;
  problem: string;
}

/** Per codec and mutation: inputs, events stored unchanged, lost (and kept in a reject), changed without a reject. */
export interface FuzzCounts {
  inputs: number;
  stored: number;
  lost: number;
  rejects: number;
  /** inputs in which some event was stored with other data, or an event not written was stored */
  silentlyChanged: number;
  /** the same, counting only mutations after the header (the blocks) */
  silentlyChangedInBlocks: number;
  /** files cut exactly at the end of a block: valid, shorter files */
  undetectable: number;
}

export interface FuzzReport {
  problems: FuzzProblem[];
  counts: Map<string, FuzzCounts>;
  slowestMs: number;
  totalMs: number;
}

/** A small, fast, seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A zigzag varint (non-negative numbers, any size up to 2^63 as a double). */
function varint(n: number): Buffer {
  const out: number[] = [];
  let u = n * 2;
  while (u >= 128 && out.length < 9) {
    out.push((u % 128) | 0x80);
    u = Math.floor(u / 128);
  }
  out.push(Math.min(u, 0x7f));
  return Buffer.from(out);
}

const HUGE = [1e6, 1e9, 2 ** 31, 2 ** 40, 2 ** 53, 2 ** 62];

/** Where the blocks of a file start (just after each sync marker but the last), and where the header ends. */
function layout(file: Buffer): { headerEnd: number; blockStarts: number[] } {
  const sync = file.subarray(file.length - 16);
  const starts: number[] = [];
  for (let at = file.indexOf(sync); at !== -1; at = file.indexOf(sync, at + 16)) starts.push(at + 16);
  return { headerEnd: starts[0]!, blockStarts: starts.slice(0, -1) };
}

function mutate(file: Buffer, mutation: Mutation, next: () => number): { bytes: Buffer; at: number } {
  const { headerEnd, blockStarts } = layout(file);
  const anywhere = () => Math.floor(next() * file.length);
  const inBlocks = () => headerEnd + Math.floor(next() * (file.length - headerEnd));
  const bytes = Buffer.from(file);
  switch (mutation) {
    case 'bit-flip': {
      const at = next() < 0.1 ? anywhere() : inBlocks();
      bytes[at] = bytes[at]! ^ (1 << Math.floor(next() * 8));
      return { bytes, at };
    }
    case 'truncate': {
      const at = inBlocks();
      return { bytes: bytes.subarray(0, at), at };
    }
    case 'insert': {
      const at = next() < 0.5 ? file.length : inBlocks();
      const inserted = Buffer.from(
        Array.from({ length: 1 + Math.floor(next() * 32) }, () => Math.floor(next() * 256)),
      );
      return { bytes: Buffer.concat([bytes.subarray(0, at), inserted, bytes.subarray(at)]), at };
    }
    case 'huge-count':
    case 'huge-length': {
      // over a block's record count (or, for a length, its size), or anywhere in the blocks
      const start = blockStarts[Math.floor(next() * blockStarts.length)]!;
      let at = next() < 0.6 ? start : inBlocks();
      if (mutation === 'huge-length' && at === start) at += varint(0).length; // roughly the size field
      const value = varint(HUGE[Math.floor(next() * HUGE.length)]!);
      value.copy(bytes, at, 0, Math.min(value.length, bytes.length - at));
      return { bytes, at };
    }
  }
}

/** Records what ingest submits instead of storing it. */
class RecordingPipeline {
  inputs: IngestInput[] = [];
  async submit(batch: readonly IngestInput[]): Promise<IngestResult> {
    this.inputs.push(...batch);
    const rejected = batch.filter((i) => 'error' in i).length;
    return { accepted: batch.length - rejected, alreadyStored: 0, rejected };
  }
}

const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );

/** Runs `inputs` mutated files through ingestFiles; nothing may throw, and every event is stored or rejected. */
export async function fuzzEventsFiles(options: FuzzOptions): Promise<FuzzReport> {
  const dir = mkdtempSync(join(tmpdir(), 'ta-ocf-fuzz-'));
  const next = random(options.seed);
  const original = new Map(options.events.map((e) => [e.data.header.eventId, canonical(e.data)]));
  const report: FuzzReport = { problems: [], counts: new Map(), slowestMs: 0, totalMs: 0 };
  try {
    const bases = new Map<EventsFileCodec, Buffer>();
    for (const codec of options.codecs) {
      const path = join(dir, `base-${codec}.avro`);
      await writeEventsFile(path, options.events, { codec, blockSize: options.blockSize ?? 2048 });
      bases.set(codec, readFileSync(path));
    }
    const started = performance.now();
    for (let input = 0; input < options.inputs; input += 1) {
      const codec = options.codecs[input % options.codecs.length]!;
      const mutation = MUTATIONS[Math.floor(next() * MUTATIONS.length)]!;
      const base = bases.get(codec)!;
      const { bytes, at } = mutate(base, mutation, next);
      const path = join(dir, `input-${input}.avro`);
      writeFileSync(path, bytes);
      const pipeline = new RecordingPipeline();
      const t0 = performance.now();
      const problem = (text: string) => report.problems.push({ input, codec, mutation, problem: text });
      try {
        await ingestFiles([path], pipeline as unknown as IngestPipeline, { batchSize: 500 });
      } catch (error) {
        problem(`ingest threw: ${(error as Error).stack ?? String(error)}`);
        continue;
      } finally {
        const ms = performance.now() - t0;
        report.slowestMs = Math.max(report.slowestMs, ms);
      }
      const key = `${codec} ${mutation}`;
      const counts =
        report.counts.get(key) ??
        ({
          inputs: 0,
          stored: 0,
          lost: 0,
          rejects: 0,
          silentlyChanged: 0,
          silentlyChangedInBlocks: 0,
          undetectable: 0,
        } as FuzzCounts);
      report.counts.set(key, counts);
      counts.inputs += 1;
      const stored = new Set<string>();
      const handed = new Set<string>();
      let changed = false;
      let changedCount = 0;
      let rejects = 0;
      for (const i of pipeline.inputs) {
        if ('error' in i) {
          rejects += 1;
          if (!i.code || !i.error.includes(path))
            problem(`a reject without a code or the file's name: ${i.error}`);
          if (i.raw === null && !i.rawRef)
            problem(`a reject keeps neither bytes nor a reference: ${i.error}`);
          if (i.raw && i.raw.length > 1024 * 1024) problem(`a reject keeps ${i.raw.length} bytes inline`);
          continue;
        }
        const id = i.event.data.header.eventId;
        handed.add(id);
        if (original.get(id) === canonical(i.event.data)) stored.add(id);
        else {
          changed = true;
          changedCount += 1;
        }
      }
      // An event not handed to the store at all must be in a reject; one handed on changed (its id too, perhaps) is
      // a silent change. A file cut exactly at the end of a block is a valid, shorter file: nothing can tell.
      const missing = [...original.keys()].filter((id) => !handed.has(id)).length;
      // each event handed on changed may stand for one that went missing (its id changed, or became another's)
      const lost = Math.max(0, missing - changedCount);
      const cutAtABlock =
        mutation === 'truncate' && layout(base).blockStarts.concat(base.length).includes(at);
      if (cutAtABlock) counts.undetectable += 1;
      else if (lost > 0 && rejects === 0)
        problem(`${lost} event(s) neither handed to the store nor rejected`);
      if (rejects > bytes.length) problem(`${rejects} rejects for a file of ${bytes.length} bytes`);
      counts.stored += stored.size;
      counts.lost += lost;
      counts.rejects += rejects;
      if (changed) {
        counts.silentlyChanged += 1;
        if (at >= layout(base).headerEnd) counts.silentlyChangedInBlocks += 1;
      }
      rmSync(path);
    }
    report.totalMs = performance.now() - started;
    return report;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
