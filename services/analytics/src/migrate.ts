import { createHash } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { MIGRATIONS, MIGRATIONS_TABLE, type Migration } from './migrations.ts';

export interface MigrationReport {
  /** versions applied by this call, in order */
  applied: number[];
  /** the schema version now */
  version: number;
}

const checksum = (m: Migration): string =>
  createHash('sha256').update(m.statements.join('\n;\n')).digest('hex').slice(0, 16);

/**
 * Applies the migrations not yet recorded, in version order, each recorded once its statements ran. Statements are
 * idempotent (IF NOT EXISTS), so a crash between a migration's statements and its record is repaired by the next
 * start. A recorded migration whose text changed since is refused rather than silently skipped.
 */
export async function migrate(
  client: ClickHouseClient,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationReport> {
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
      version UInt32, name String, checksum String, applied_at DateTime64(3, 'UTC')
    ) ENGINE = ReplacingMergeTree ORDER BY version`,
  });
  const rows = await (
    await client.query({
      query: `SELECT version, checksum FROM ${MIGRATIONS_TABLE} FINAL ORDER BY version`,
      format: 'JSONEachRow',
    })
  ).json<{ version: number; checksum: string }>();
  const recorded = new Map(rows.map((r) => [Number(r.version), r.checksum]));
  const known = new Set(migrations.map((m) => m.version));
  for (const v of recorded.keys())
    if (!known.has(v))
      throw new Error(
        `the analytics schema is at migration ${v}, which this build does not know: it was written by a newer ` +
          `table-audit; run that version, or give this one its own analytics directory/database`,
      );
  const applied: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    const sum = checksum(m);
    const was = recorded.get(m.version);
    if (was !== undefined) {
      if (was !== sum)
        throw new Error(
          `analytics migration ${m.version} ("${m.name}") differs from the one applied (checksum ${was}, now ${sum}): ` +
            `released migrations must not be edited; add a new migration instead`,
        );
      continue;
    }
    for (const statement of m.statements) await client.command({ query: statement });
    await client.insert({
      table: MIGRATIONS_TABLE,
      values: [{ version: m.version, name: m.name, checksum: sum, applied_at: Date.now() }],
      format: 'JSONEachRow',
    });
    applied.push(m.version);
  }
  return { applied, version: Math.max(0, ...known) };
}
