import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { analyticsTarget, openAnalytics, PROJECTOR_NAME } from '@table-audit/analytics';
import { ANCHORS_FILE, type EventStore } from '@table-audit/eventstore';
import { REJECTS_STREAM } from '@table-audit/ingest';
import { FINDING_EVENT_TYPE, readForShard, type Shard } from '@table-audit/replay';
import { formatMacauTime, type Finding } from '@table-audit/rules';
import { findingStream } from '@table-audit/schemas/streams';
import { anchorsDir } from './anchors.ts';
import { json, out, UsageError, type Command } from './command.ts';
import { lagBehind, SqliteStoreProbe } from './observe.ts';
import { openStoreReadOnly, storePath } from './store.ts';

const usage = `Usage: table-audit status [--json] [--store PATH] [--analytics DIR | --no-analytics] [--anchors DIR]

What the embedded run holds now, read without writing anything: the event store (file, size, head, events), the
rejects by reason, each reader's checkpoint (replay, replay shards, analytics) and how far it is behind the head,
the findings by check and severity, the ClickHouse rows per table and the projection's lag, and the last signed
anchor. The same figures the long-running processes serve at /metrics (docs/observability.md). Times in Macau
time (UTC+8) for people; --json carries UTC milliseconds and positions as decimal strings.

  --store PATH      the event store (default $TABLE_AUDIT_STORE, else data/events.sqlite)
  --analytics DIR   the chDB directory (default $TABLE_AUDIT_ANALYTICS, else analytics/ beside the store, where
                    run projects; with CLICKHOUSE_URL, that server). chDB binds a directory to one process: while
                    serve or run holds it, its rows cannot be read here (said so); --no-analytics skips them
  --anchors DIR     the signed anchors (default $TABLE_AUDIT_ANCHORS, else run/anchors beside the store)

Exit 0 when the status was read, 1 when the store could not be read, 2 for a usage error.`;

/** Rejects and findings are counted up to this many each (a bounded read); beyond, the count says "at least". */
export const STATUS_COUNT_LIMIT = 5_000_000;
/** The last anchor is read from the last bytes of anchors.jsonl, at most this many. */
const ANCHOR_TAIL_BYTES = 32 * 1024 * 1024;
/** A shard's lag is counted up to this many events. */
const SHARD_LAG_LIMIT = 100_000;

export interface StatusReport {
  store: {
    path: string;
    bytes: number;
    walBytes: number;
    events: number;
    head: { position: string; recordedAt: number } | null;
  };
  rejects: { total: number; byReason: Record<string, number>; capped: boolean };
  checkpoints: {
    name: string;
    position: string;
    savedAt: number;
    lagEvents: number;
    /** a replay's lag (table events only; a shard: its own tables') was counted up to SHARD_LAG_LIMIT and reached it */
    lagCapped: boolean;
    lagSeconds: number;
  }[];
  findings: {
    total: number;
    byCheck: { checkId: string; severity: string; count: number }[];
    capped: boolean;
  };
  analytics:
    | {
        where: string;
        rows: Record<string, number>;
        checkpoint: string;
        lagEvents: number | null;
        lagSeconds: number | null;
      }
    | { where: string; error: string }
    | null;
  anchors:
    | {
        dir: string;
        sequence: number;
        time: number;
        position: string;
        keyId: string;
        checkpoints: Record<string, string | null>;
      }
    | { dir: string; error: string }
    | null;
}

const SHARD_CHECKPOINT = /^replay\/shard-(\d+)-of-(\d+)$/;

/** The last complete line of a file, reading at most its last `limit` bytes. */
function lastLine(path: string, limit: number): string | null {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, limit);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const lines = buffer
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    if (lines.length === 0) return null;
    // a first line cut by the window is incomplete, unless the window is the whole file
    if (lines.length === 1 && length < size) return null;
    return lines.at(-1)!;
  } finally {
    closeSync(fd);
  }
}

/** Everything status reports, read from the store (read-only), the analytics target and the anchors. */
export async function readStatus(o: {
  storeFile: string;
  analytics: { dir: string } | null;
  anchors: string | undefined;
}): Promise<StatusReport> {
  const probe = new SqliteStoreProbe(o.storeFile);
  const { store } = openStoreReadOnly(o.storeFile);
  try {
    const head = probe.head();
    const size = probe.sizeBytes();
    const report: StatusReport = {
      store: {
        path: o.storeFile,
        bytes: size.file,
        walBytes: size.wal,
        events: probe.events(),
        head: head ? { position: head.position.toString(), recordedAt: head.recordedAt } : null,
      },
      rejects: { total: 0, byReason: {}, capped: false },
      checkpoints: [],
      findings: { total: 0, byCheck: [], capped: false },
      analytics: null,
      anchors: null,
    };
    for await (const e of store.readStream(REJECTS_STREAM, { maxCount: STATUS_COUNT_LIMIT })) {
      const code = (e.data as { code?: unknown } | null)?.code;
      const reason = typeof code === 'string' ? code : 'UNKNOWN';
      report.rejects.byReason[reason] = (report.rejects.byReason[reason] ?? 0) + 1;
      report.rejects.total++;
    }
    report.rejects.capped = report.rejects.total === STATUS_COUNT_LIMIT;
    const checks = new Map<string, number>();
    const prefix = findingStream('');
    for await (const e of store.readAll({
      streams: (s: string) => s.startsWith(prefix),
      maxCount: STATUS_COUNT_LIMIT,
    })) {
      if (e.type !== FINDING_EVENT_TYPE) continue;
      const f = e.data as Finding;
      const key = `${f.checkId}\u0000${f.severity}`;
      checks.set(key, (checks.get(key) ?? 0) + 1);
      report.findings.total++;
    }
    report.findings.capped = report.findings.total === STATUS_COUNT_LIMIT;
    report.findings.byCheck = [...checks]
      .map(([key, count]) => {
        const [checkId, severity] = key.split('\u0000') as [string, string];
        return { checkId, severity, count };
      })
      .sort((a, b) => b.count - a.count || a.checkId.localeCompare(b.checkId));
    for (const c of probe.checkpoints()) {
      const m = SHARD_CHECKPOINT.exec(c.name);
      if (m || c.name === 'replay') {
        // a replay's lag is the table events after its checkpoint: its own writes after it are not
        const shard = m ? { index: Number(m[1]), count: Number(m[2]) } : { index: 0, count: 1 };
        const lag = await shardLag(store, shard, c.position);
        report.checkpoints.push({
          name: c.name,
          position: c.position.toString(),
          savedAt: c.savedAt,
          ...lag,
        });
      } else {
        const l = lagBehind(probe, c.position);
        report.checkpoints.push({
          name: c.name,
          position: c.position.toString(),
          savedAt: c.savedAt,
          lagEvents: Number(l.events),
          lagCapped: false,
          lagSeconds: l.seconds,
        });
      }
    }
    if (o.analytics) report.analytics = await readAnalytics(o.analytics.dir, report);
    if (o.anchors !== undefined) report.anchors = readAnchors(o.anchors);
    return report;
  } finally {
    probe.close();
    await store.close();
  }
}

async function shardLag(
  store: EventStore,
  shard: Shard,
  position: bigint,
): Promise<{ lagEvents: number; lagCapped: boolean; lagSeconds: number }> {
  let events = 0;
  let oldest: number | null = null;
  for await (const e of readForShard(store, shard).readAll({
    fromPosition: position,
    maxCount: SHARD_LAG_LIMIT,
  })) {
    oldest ??= e.recordedAt;
    events++;
  }
  return {
    lagEvents: events,
    lagCapped: events === SHARD_LAG_LIMIT,
    lagSeconds: oldest === null ? 0 : Math.max(0, (Date.now() - oldest) / 1000),
  };
}

async function readAnalytics(dir: string, report: StatusReport): Promise<StatusReport['analytics']> {
  const target = analyticsTarget(process.env, dir);
  const where = 'url' in target ? 'the ClickHouse server at CLICKHOUSE_URL' : `chDB in ${target.path}`;
  if ('path' in target && !existsSync(target.path))
    return { where, error: 'no analytics data there yet (table-audit run or analytics project makes it)' };
  try {
    const analytics = await openAnalytics(target);
    try {
      const c = analytics.client;
      const tables = await (
        await c.query({
          query: `SELECT name FROM system.tables WHERE database = currentDatabase() AND engine LIKE '%ReplacingMergeTree' ORDER BY name`,
          format: 'JSONEachRow',
        })
      ).json<{ name: string }>();
      const rows: Record<string, number> = {};
      for (const { name } of tables) {
        const r = await c.query({ query: `SELECT count() AS n FROM ${name} FINAL`, format: 'JSONEachRow' });
        rows[name] = Number((await r.json<{ n: string }>())[0]!.n);
      }
      const cp = report.checkpoints.find((x) => x.name === PROJECTOR_NAME);
      return {
        where: analytics.description,
        rows,
        checkpoint: PROJECTOR_NAME,
        lagEvents: cp ? cp.lagEvents : report.store.head ? Number(report.store.head.position) : null,
        lagSeconds: cp ? cp.lagSeconds : null,
      };
    } finally {
      await analytics.close();
    }
  } catch (e) {
    return { where, error: `could not be read: ${(e as Error).message}` };
  }
}

function readAnchors(dir: string): StatusReport['anchors'] {
  const file = join(dir, ANCHORS_FILE);
  if (!existsSync(file)) return { dir, error: `no ${ANCHORS_FILE} there` };
  try {
    const line = lastLine(file, ANCHOR_TAIL_BYTES);
    if (line === null)
      return {
        dir,
        error: `no complete anchor in the last ${ANCHOR_TAIL_BYTES / 1024 / 1024} MiB of ${file}`,
      };
    const a = JSON.parse(line) as {
      sequence?: unknown;
      time?: unknown;
      position?: unknown;
      keyId?: unknown;
      checkpoints?: unknown;
    };
    if (typeof a.sequence !== 'number' || typeof a.time !== 'number' || typeof a.position !== 'string')
      return { dir, error: `the last line of ${file} is not an anchor (sequence, time, position)` };
    return {
      dir,
      sequence: a.sequence,
      time: a.time,
      position: a.position,
      keyId: typeof a.keyId === 'string' ? a.keyId : 'unknown',
      checkpoints: (a.checkpoints ?? {}) as Record<string, string | null>,
    };
  } catch (e) {
    return { dir, error: `the last anchor of ${file} could not be read: ${(e as Error).message}` };
  }
}

const n = (x: number): string => x.toLocaleString('en-US');
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const ago = (seconds: number): string =>
  seconds < 120
    ? `${seconds.toFixed(0)} s`
    : seconds < 7200
      ? `${(seconds / 60).toFixed(0)} min`
      : `${(seconds / 3600).toFixed(1)} h`;

/** The report for people: one section per part, times in Macau time. */
export function statusText(r: StatusReport): string {
  const lines: string[] = [];
  const s = r.store;
  lines.push(
    `event store   ${s.path}: ${mib(s.bytes)} (+ ${mib(s.walBytes)} write-ahead log), ${n(s.events)} events`,
  );
  lines.push(
    s.head
      ? `  head        position ${s.head.position}, recorded ${formatMacauTime(s.head.recordedAt)}`
      : '  head        the store is empty',
  );
  lines.push(`rejects       ${n(r.rejects.total)}${r.rejects.capped ? ' or more' : ''}`);
  for (const [reason, count] of Object.entries(r.rejects.byReason).sort((a, b) => b[1] - a[1]))
    lines.push(`  ${reason.padEnd(40)} ${n(count).padStart(10)}`);
  const width = Math.max(22, ...r.checkpoints.map((c) => c.name.length));
  lines.push(`checkpoints   ${''.padEnd(width - 10)}position   behind the head`);
  if (r.checkpoints.length === 0) lines.push('  none saved: nothing has replayed or projected this store');
  for (const c of r.checkpoints)
    lines.push(
      `  ${c.name.padEnd(width)} ${c.position.padStart(10)}   ${c.lagEvents === 0 ? 'caught up' : `${n(c.lagEvents)}${c.lagCapped ? '+' : ''} events, oldest unread ${ago(c.lagSeconds)} old`}; saved ${formatMacauTime(c.savedAt)}`,
    );
  lines.push(`findings      ${n(r.findings.total)}${r.findings.capped ? ' or more' : ''}`);
  for (const f of r.findings.byCheck)
    lines.push(`  ${f.checkId.padEnd(40)} ${f.severity.padEnd(9)} ${n(f.count).padStart(8)}`);
  const a = r.analytics;
  if (a === null) lines.push('analytics     not read (--no-analytics)');
  else if ('error' in a) lines.push(`analytics     ${a.where}: ${a.error}`);
  else {
    lines.push(
      `analytics     ${a.where}; projection "${a.checkpoint}" ${a.lagEvents === 0 ? 'caught up' : a.lagEvents === null ? 'not started' : `${n(a.lagEvents)} events behind${a.lagSeconds === null ? '' : `, oldest unprojected ${ago(a.lagSeconds)} old`}`}`,
    );
    for (const [t, count] of Object.entries(a.rows))
      lines.push(`  ${t.padEnd(40)} ${n(count).padStart(10)} rows`);
  }
  const x = r.anchors;
  if (x === null) lines.push('anchors       none configured (--anchors DIR or TABLE_AUDIT_ANCHORS)');
  else if ('error' in x) lines.push(`anchors       ${x.dir}: ${x.error}`);
  else
    lines.push(
      `anchors       ${x.dir}: last signed ${formatMacauTime(x.time)} (anchor ${x.sequence}, position ${x.position}, key ${x.keyId}); not verified here: table-audit verify --anchors ${x.dir}`,
    );
  return lines.join('\n');
}

export const statusCommand: Command = {
  name: 'status',
  summary: 'the embedded run now: store, rejects, checkpoints and lag, findings, ClickHouse rows, anchors',
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        json: { type: 'boolean' },
        store: { type: 'string' },
        analytics: { type: 'string' },
        'no-analytics': { type: 'boolean' },
        anchors: { type: 'string' },
      },
    });
    if (values.analytics !== undefined && values['no-analytics'])
      throw new UsageError('give --analytics DIR or --no-analytics, not both');
    if (values.analytics === '')
      throw new UsageError('--analytics needs a directory, e.g. --analytics data/analytics');
    const storeFile = storePath(values.store);
    const beside = dirname(storeFile);
    const dir = values.analytics ?? (process.env.TABLE_AUDIT_ANALYTICS || join(beside, 'analytics'));
    let anchors = anchorsDir(values.anchors);
    if (anchors === undefined && existsSync(join(beside, 'run', 'anchors')))
      anchors = join(beside, 'run', 'anchors');
    const report = await readStatus({
      storeFile,
      analytics: values['no-analytics'] ? null : { dir },
      anchors,
    });
    out(values.json ? json(report) : statusText(report));
    return 0;
  },
};
