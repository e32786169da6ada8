/**
 * FOR TESTS ONLY: opens a version 5 SQLite store file as a forger with write access to it would, and shows its
 * events as a plain table again: a TEMP VIEW named `events` (it hides main.events for this connection only) with
 * the columns of the version 3 layout — stream and type as text, data and metadata as canonical JSON text, hashes
 * as 32-byte BLOBs — whose UPDATE, DELETE and INSERT are written back to main.events in the compact form.
 * previous_hash is not stored since version 5: the view shows the hash of the stream's previous row (zeros for
 * revision 0), and what is written to it is ignored (edit `hash` to re-order or forge a link). So a
 * tamper test keeps its SQL (`UPDATE events SET data = '{"amount":99000}' WHERE stream = 'table-1' …`) and the
 * edit lands in the stored bytes as a real edit would; the store, opened normally, sees only main.events.
 *
 * Data that the compact form cannot hold (a float, text that is not JSON) is written as bytes that do not decode,
 * which the store reads as content that no longer matches its hash.
 */
import Database from 'better-sqlite3';
import { encodeCompact, decodeCompact, type DecodeDictionary } from './compact.ts';
import { canonicalJson } from './canonical-json.ts';
import { DICTIONARY_KIND } from './sqlite-event-store.ts';

/** Bytes no value of the compact form starts with (tag 255). */
const UNDECODABLE = Buffer.from([0xff]);

function shapesOf(v: unknown, out: Set<string>): void {
  if (v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (const item of v) shapesOf(item, out);
    return;
  }
  const record = v as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  out.add(JSON.stringify(keys));
  for (const k of keys) shapesOf(record[k], out);
}

const parse = (json: unknown): { ok: true; value: unknown } | { ok: false } => {
  if (typeof json !== 'string') return { ok: false };
  try {
    const value = JSON.parse(json) as unknown;
    canonicalJson(value);
    return { ok: true, value };
  } catch {
    return { ok: false };
  }
};

/** The store file opened for editing through its version 3 view (see above). Close it before using the store. */
export function openForTampering(path: string): Database.Database {
  const db = new Database(path, { fileMustExist: true });
  const prepare = db.prepare.bind(db);
  const entries = () => {
    const rows = prepare<[], { id: number; kind: number; text: string }>(
      'SELECT id, kind, text FROM main.dictionary',
    ).all();
    return new Map(rows.map((r) => [r.id, r]));
  };
  // the decode side reads the dictionary once per statement (a UDF cannot query the connection it runs on)
  let cache = entries();
  const dictionary: DecodeDictionary = {
    shapeKeys: (id) => JSON.parse(cache.get(id)?.text ?? 'null') as string[],
    stringAt: (id) => cache.get(id)?.text ?? '',
  };
  db.function('ta_shapes', { deterministic: true }, (json: unknown) => {
    const parsed = parse(json);
    const shapes = new Set<string>();
    if (parsed.ok) shapesOf(parsed.value, shapes);
    return JSON.stringify([...shapes]);
  });
  db.function('ta_encode', (json: unknown, shapeIds: unknown) => {
    if (json === null) return null;
    const parsed = parse(json);
    if (!parsed.ok) return UNDECODABLE;
    const ids = JSON.parse(String(shapeIds)) as Record<string, number>;
    return encodeCompact(parsed.value, {
      shape: (keys) => {
        const id = ids[keys];
        if (id === undefined) throw new Error(`shape ${keys} is not in the dictionary`);
        return id;
      },
      string: () => undefined,
    });
  });
  db.function('ta_decode', (bytes: unknown, eventId: unknown) => {
    if (bytes === null) return null;
    try {
      return canonicalJson(decodeCompact(bytes as Uint8Array, dictionary, String(eventId)));
    } catch {
      return '"(undecodable)"';
    }
  });
  const refresh = () => {
    cache = entries();
  };
  const shapeIds = `(SELECT json_group_object(text, id) FROM main.dictionary WHERE kind = ${DICTIONARY_KIND.shape})`;
  const ensure = (column: 'data' | 'metadata') =>
    `INSERT OR IGNORE INTO main.dictionary (kind, text)
       SELECT ${DICTIONARY_KIND.shape}, value FROM json_each(ta_shapes(NEW.${column}));`;
  const ensureName = (kind: number, column: 'stream' | 'type') =>
    `INSERT OR IGNORE INTO main.dictionary (kind, text) VALUES (${kind}, NEW.${column});`;
  const idOf = (kind: number, column: 'stream' | 'type') =>
    `(SELECT id FROM main.dictionary WHERE kind = ${kind} AND text = NEW.${column})`;
  db.exec(`
    CREATE TEMP VIEW events AS
      SELECT e.position, s.text AS stream, e.revision, e.event_id, t.text AS type, ta_decode(e.data, e.event_id) AS data,
             ta_decode(e.metadata, e.event_id) AS metadata, e.recorded_at,
             CASE WHEN e.revision = 0 THEN zeroblob(32)
                  ELSE (SELECT p.hash FROM main.events p WHERE p.stream_id = e.stream_id AND p.revision = e.revision - 1)
             END AS previous_hash,
             e.hash
      FROM main.events e
      JOIN main.dictionary s ON s.id = e.stream_id
      JOIN main.dictionary t ON t.id = e.type_id;
    CREATE TEMP TRIGGER events_delete INSTEAD OF DELETE ON events BEGIN
      DELETE FROM main.events WHERE position = OLD.position;
    END;
    CREATE TEMP TRIGGER events_update INSTEAD OF UPDATE ON events BEGIN
      ${ensureName(DICTIONARY_KIND.stream, 'stream')}
      ${ensureName(DICTIONARY_KIND.type, 'type')}
      ${ensure('data')}
      ${ensure('metadata')}
      UPDATE main.events SET
        position = NEW.position,
        stream_id = ${idOf(DICTIONARY_KIND.stream, 'stream')},
        revision = NEW.revision,
        event_id = NEW.event_id,
        type_id = ${idOf(DICTIONARY_KIND.type, 'type')},
        data = CASE WHEN NEW.data IS OLD.data THEN data ELSE ta_encode(NEW.data, ${shapeIds}) END,
        metadata = CASE WHEN NEW.metadata IS OLD.metadata THEN metadata ELSE ta_encode(NEW.metadata, ${shapeIds}) END,
        recorded_at = NEW.recorded_at,
        hash = NEW.hash
      WHERE position = OLD.position;
    END;
    CREATE TEMP TRIGGER events_insert INSTEAD OF INSERT ON events BEGIN
      ${ensureName(DICTIONARY_KIND.stream, 'stream')}
      ${ensureName(DICTIONARY_KIND.type, 'type')}
      ${ensure('data')}
      ${ensure('metadata')}
      INSERT INTO main.events (position, stream_id, revision, event_id, type_id, data, metadata, recorded_at,
                               hash)
      VALUES (NEW.position, ${idOf(DICTIONARY_KIND.stream, 'stream')}, NEW.revision, NEW.event_id,
              ${idOf(DICTIONARY_KIND.type, 'type')}, ta_encode(NEW.data, ${shapeIds}),
              ta_encode(NEW.metadata, ${shapeIds}), NEW.recorded_at, NEW.hash);
    END;
  `);
  // a statement through the view sees the dictionary as it was when the previous one ended
  db.prepare = ((sql: string) => {
    refresh();
    return prepare(sql);
  }) as typeof db.prepare;
  return db;
}
