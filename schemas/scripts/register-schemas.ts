/**
 * Registers the current schema of every event and audit record of schemas/avro in schemas/registry.json: a schema already
 * there keeps its id, a changed one becomes the next version with a new id. Commit registry.json afterwards.
 * Run: `pnpm --filter @table-audit/schemas register-schemas [path/to/registry.json]`.
 */
import { recordFullName } from '../src/avro.ts';
import { AUDIT_RECORD_TYPES, TABLE_EVENT_TYPE_LIST } from '../src/events.ts';
import { COMMITTED_REGISTRY_PATH, FileSchemaRegistry, registerEventSchemas } from '../src/registry.ts';

const path = process.argv[2] ?? COMMITTED_REGISTRY_PATH;
const registry = await FileSchemaRegistry.open(path);
const before = registry.entries().length;
const ids = await registerEventSchemas(registry);
for (const type of [...TABLE_EVENT_TYPE_LIST, ...AUDIT_RECORD_TYPES]) {
  const entry = registry.versionsOf(recordFullName(type)).find((e) => e.id === ids[type])!;
  console.log(`${String(entry.id).padStart(4)}  ${entry.fullName} v${entry.version}`);
}
console.log(`${path}: ${registry.entries().length - before} new schema version(s)`);
