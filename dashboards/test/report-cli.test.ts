import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { reportCommand } from '../../apps/cli/src/commands/report.ts';

// the report reads CLICKHOUSE_URL before --analytics: these tests are about the chDB directory
delete process.env.CLICKHOUSE_URL;
const dir = mkdtempSync(join(tmpdir(), 'ta-report-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('table-audit report: what it refuses before reading anything', () => {
  it('a missing or impossible --date is a usage error naming the option', async () => {
    await assert.rejects(reportCommand.run([]), { name: 'UsageError', message: /--date is required/ });
    await assert.rejects(reportCommand.run(['--date', '2025-02-30']), {
      name: 'UsageError',
      message: /--date: "2025-02-30" has day 30; 2025-02 has days 01 to 28/,
    });
  });
  it('--out must be an .html file, and an existing one is never overwritten', async () => {
    await assert.rejects(reportCommand.run(['--date', '2025-12-01', '--out', join(dir, 'r.txt')]), {
      name: 'UsageError',
      message: /must end in \.html/,
    });
    const existing = join(dir, 'kept.html');
    writeFileSync(existing, 'mine');
    await assert.rejects(
      reportCommand.run(['--date', '2025-12-01', '--out', existing]),
      /kept\.html exists; the report never overwrites a file/,
    );
    assert.equal(readFileSync(existing, 'utf8'), 'mine');
  });
  it('an analytics directory that does not exist is named, not created', async () => {
    const missing = join(dir, 'no-analytics');
    await assert.rejects(
      reportCommand.run(['--date', '2025-12-01', '--out', join(dir, 'r.html'), '--analytics', missing]),
      new RegExp(`no analytics data in ${missing.replace(/[/.]/g, '\\$&')}`),
    );
  });
});
