/**
 * The Avro schemas of schemas/avro/ as data: reading the .avsc files, making one record's schema self-contained
 * (named types referenced from other files written out in place, as a registry and an events file need them),
 * fingerprints, and avsc types built the one way every codec here uses.
 *
 * Each .avsc file holds one named type, named `<namespace>.<name>.avsc`. A type used by several files (BetType,
 * ShuffleMode, CardTarget, Game, the EventHeader) has its own file and is referenced by its full name. A record or
 * type that moved namespace keeps its former full name as an Avro alias, so that data written before still reads.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import avro from 'avsc';
import { InvalidSchemaError, UnknownEventTypeError } from './errors.ts';
import {
  AUDIT_RECORD_TYPES,
  TABLE_EVENT_TYPE_LIST,
  FORMER_FULL_NAMES,
  RECORD_FULL_NAMES,
  type AuditRecordType,
  type ContractRecordType,
  type TableEventType,
} from './events.ts';

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/** A named Avro type as written in a .avsc file or registered: a JSON object with `type` and `name`. */
export type NamedSchema = JsonObject & { type: string; name: string };

export const AVRO_DIR = fileURLToPath(new URL('../avro/', import.meta.url));
/** ta.common: the envelope and the table events every game shares; ta.<game>: a game's own; ta.audit: what the pipeline writes. */
export const NAMESPACES = { common: 'ta.common', f3cp: 'ta.f3cp', audit: 'ta.audit' } as const;
export const HEADER_FULL_NAME = 'ta.common.EventHeader';

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const NAMED_KINDS = new Set(['record', 'error', 'enum', 'fixed']);

/** The Avro full name of a record of the contract (e.g. ta.common.TableOpened, ta.f3cp.BetPlaced). */
export const recordFullName = (type: ContractRecordType): string => RECORD_FULL_NAMES[type];
export const eventFullName: (type: TableEventType) => string = recordFullName;

const EVENT_TYPES_BY_FULL_NAME = new Map<string, TableEventType>([
  ...TABLE_EVENT_TYPE_LIST.map((t) => [recordFullName(t), t] as const),
  // data written before a record moved namespace (ta.f3cp.TableOpened → ta.common.TableOpened) is still that event
  ...Object.entries(FORMER_FULL_NAMES).map(([former, t]) => [former, t] as const),
]);
const AUDIT_TYPES_BY_FULL_NAME = new Map<string, AuditRecordType>(
  AUDIT_RECORD_TYPES.map((t) => [recordFullName(t), t]),
);

/** The event type of a record full name, current or former, or undefined when the record is not an event. */
export const eventTypeOf = (fullName: string): TableEventType | undefined =>
  EVENT_TYPES_BY_FULL_NAME.get(fullName);

/** The audit record type of a full name (ta.audit.*), or undefined. */
export const auditRecordTypeOf = (fullName: string): AuditRecordType | undefined =>
  AUDIT_TYPES_BY_FULL_NAME.get(fullName);

/** The record type of a full name, current or former: an event or an audit record; undefined for anything else. */
export const recordTypeOf = (fullName: string): ContractRecordType | undefined =>
  eventTypeOf(fullName) ?? auditRecordTypeOf(fullName);

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The full name of a named type: `namespace.name`, or the name itself when it already has dots. */
export function fullNameOf(schema: JsonObject, enclosingNamespace = ''): string {
  const name = schema['name'];
  if (typeof name !== 'string' || name === '')
    throw new InvalidSchemaError('a named type', 'it has no "name"');
  if (name.includes('.')) return name;
  const namespace = typeof schema['namespace'] === 'string' ? schema['namespace'] : enclosingNamespace;
  return namespace ? `${namespace}.${name}` : name;
}

const namespaceOfFullName = (fullName: string): string =>
  fullName.slice(0, Math.max(0, fullName.lastIndexOf('.')));

/** Resolves a type reference by name the way Avro does: a name without dots is in the enclosing namespace. */
const qualify = (reference: string, namespace: string): string =>
  reference.includes('.') || !namespace ? reference : `${namespace}.${reference}`;

/**
 * Reads every .avsc file of `dir`: full name → the named type as written. Checks that each file holds one named
 * type with an explicit namespace and that the file is named after it.
 */
export function readSchemaFiles(dir: string = AVRO_DIR): Map<string, NamedSchema> {
  const definitions = new Map<string, NamedSchema>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.avsc'))
    .sort()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch (error) {
      throw new InvalidSchemaError(file, `not JSON (${(error as Error).message})`);
    }
    if (!isJsonObject(parsed) || typeof parsed['type'] !== 'string' || !NAMED_KINDS.has(parsed['type']))
      throw new InvalidSchemaError(file, 'a .avsc file here holds one named type (record, enum or fixed)');
    if (typeof parsed['namespace'] !== 'string')
      throw new InvalidSchemaError(file, 'give the top-level type an explicit "namespace"');
    const fullName = fullNameOf(parsed);
    if (file !== `${fullName}.avsc`) throw new InvalidSchemaError(file, `name the file ${fullName}.avsc`);
    definitions.set(fullName, parsed as NamedSchema);
  }
  return definitions;
}

/**
 * Writes out, in place, every named type a schema references from `definitions` (depth first, each once), and
 * turns every reference into a full name. The result parses on its own. Pass an array for a union whose branches
 * share named types (each is defined in the first branch that uses it).
 */
export function selfContained<S extends Json>(schema: S, definitions: ReadonlyMap<string, NamedSchema>): S {
  const defined = new Set<string>();
  const walk = (node: Json, namespace: string): Json => {
    if (typeof node === 'string') {
      if (PRIMITIVES.has(node)) return node;
      const fullName = qualify(node, namespace);
      if (defined.has(fullName)) return fullName;
      const definition = definitions.get(fullName);
      if (!definition)
        throw new InvalidSchemaError(
          fullName,
          'it is referenced but no .avsc file in schemas/avro defines it',
        );
      return walk(definition, namespaceOfFullName(fullName));
    }
    if (Array.isArray(node)) return node.map((branch) => walk(branch, namespace));
    if (!isJsonObject(node)) throw new InvalidSchemaError(JSON.stringify(node), 'not a type');
    const kind = node['type'];
    if (typeof kind !== 'string' || !NAMED_KINDS.has(kind)) {
      // array, map, a primitive with attributes (e.g. a logical type), or a type wrapped in {"type": …}
      const copy: JsonObject = { ...node };
      if (typeof kind !== 'string' || !(PRIMITIVES.has(kind) || kind === 'array' || kind === 'map'))
        copy['type'] = walk(kind ?? null, namespace);
      if (kind === 'array' && node['items'] !== undefined) copy['items'] = walk(node['items'], namespace);
      if (kind === 'map' && node['values'] !== undefined) copy['values'] = walk(node['values'], namespace);
      return copy;
    }
    const fullName = fullNameOf(node, namespace);
    if (defined.has(fullName)) throw new InvalidSchemaError(fullName, 'it is defined twice');
    defined.add(fullName);
    const copy: JsonObject = { ...node };
    const fields = node['fields'];
    if (Array.isArray(fields)) {
      const ownNamespace = namespaceOfFullName(fullName);
      copy['fields'] = fields.map((field) =>
        isJsonObject(field) ? { ...field, type: walk(field['type'] ?? null, ownNamespace) } : field,
      );
    }
    return copy;
  };
  return walk(schema, '') as S;
}

let currentDefinitions: Map<string, NamedSchema> | undefined;

/** The schemas of schemas/avro/, read once. */
export function schemaDefinitions(): ReadonlyMap<string, NamedSchema> {
  currentDefinitions ??= readSchemaFiles();
  return currentDefinitions;
}

/** The current, self-contained schema of a record of the contract: what is registered and what encodes it. */
export function recordSchema(
  type: ContractRecordType,
  definitions: ReadonlyMap<string, NamedSchema> = schemaDefinitions(),
): NamedSchema {
  const fullName = RECORD_FULL_NAMES[type] as string | undefined;
  const definition = fullName === undefined ? undefined : definitions.get(fullName);
  if (!definition)
    throw new UnknownEventTypeError(type, fullName ? ` (no ${fullName}.avsc in schemas/avro)` : '');
  return selfContained(definition, definitions);
}
export const eventSchema: (
  type: TableEventType,
  definitions?: ReadonlyMap<string, NamedSchema>,
) => NamedSchema = recordSchema;

/** The union of every event record, in TABLE_EVENT_TYPE_LIST order: the schema of an events file. */
export function eventUnionSchema(
  definitions: ReadonlyMap<string, NamedSchema> = schemaDefinitions(),
): Json[] {
  return selfContained(
    TABLE_EVENT_TYPE_LIST.map((type) => recordFullName(type)),
    definitions,
  );
}

/** JSON with object keys sorted, so that a fingerprint does not depend on key order or whitespace. */
function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k] ?? null)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/**
 * SHA-256 (hex) of the whole schema — docs, defaults and logical types included — with object keys sorted.
 * Unlike Avro's Parsing Canonical Form it changes when a default changes, since defaults decide resolution.
 */
export const schemaFingerprint = (schema: Json): string =>
  createHash('sha256').update(canonicalJson(schema)).digest('hex');

/**
 * The avsc type of a schema. No logical-type hooks on purpose: timestamp-millis reads as a number of UTC
 * milliseconds, as the TypeScript types say, never as a Date.
 */
export function createType(schema: Json, what = 'schema'): avro.Type {
  try {
    return avro.Type.forSchema(schema as avro.Schema);
  } catch (error) {
    throw new InvalidSchemaError(what, (error as Error).message);
  }
}

/**
 * The avsc type of a schema for reading only, whose records decode as plain objects (prototype Object.prototype,
 * fields in schema order): what toPlain would make of a decoded value, without making every object twice. The
 * records' constructors are avsc's own, made without their methods (omitRecordMethods) and given Object.prototype.
 * Nothing here is wrapped: a union of the schemas this reads is ["null", X], read unwrapped. Use it to decode, not to
 * encode (it encodes the same, but its records have no methods).
 */
export function createPlainReaderType(schema: Json, what = 'schema'): avro.Type {
  const registry: Record<string, avro.Type> = {};
  let type: avro.Type;
  try {
    type = avro.Type.forSchema(schema as avro.Schema, { omitRecordMethods: true, registry });
  } catch (error) {
    throw new InvalidSchemaError(what, (error as Error).message);
  }
  for (const named of Object.values(registry))
    if (named.typeName === 'record' || named.typeName === 'error')
      (named as avro.types.RecordType).recordConstructor.prototype = Object.prototype;
  return type;
}

/** Parses a schema given as JSON text or as an object, and checks that it is a named type. */
export function parseNamedSchema(schema: string | JsonObject): NamedSchema {
  let parsed: unknown = schema;
  if (typeof schema === 'string') {
    try {
      parsed = JSON.parse(schema);
    } catch (error) {
      throw new InvalidSchemaError('the schema text', `not JSON (${(error as Error).message})`);
    }
  }
  if (!isJsonObject(parsed) || typeof parsed['type'] !== 'string' || !NAMED_KINDS.has(parsed['type']))
    throw new InvalidSchemaError('the schema', 'only a named type (record, enum, fixed) can be registered');
  fullNameOf(parsed);
  return parsed as NamedSchema;
}

/**
 * avsc decodes records as instances of generated classes; this copies a decoded value into plain objects and
 * arrays, so that events compare, spread, clone and serialise like the literals of events.ts.
 */
export function toPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlain);
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return value;
  const plain: Record<string, unknown> = {};
  for (const key of Object.keys(value)) plain[key] = toPlain((value as Record<string, unknown>)[key]);
  return plain;
}

/** What a value should have been, for an error message. */
function describeType(type: avro.Type): string {
  if (type.typeName === 'enum') return `one of ${(type as avro.types.EnumType).symbols.join(', ')}`;
  if (type.typeName === 'long' || type.typeName === 'int')
    return `a whole number (Avro ${type.typeName}${type.typeName === 'long' ? ', safe integer' : ', 32-bit'})`;
  if (type.typeName.endsWith('union:unwrapped') || type.typeName.endsWith('union:wrapped'))
    return (type as avro.types.UnwrappedUnionType).types.map(describeType).join(' or ');
  if (type.typeName === 'record') return `a ${type.name} record`;
  return type.typeName;
}

/** Every path of `value` that does not fit `type`, each with what was found and what was expected. */
export function validationProblems(type: avro.Type, value: unknown): string[] {
  const problems: string[] = [];
  type.isValid(value, {
    errorHook: (path, found, expected) => {
      problems.push(
        `${path.length ? path.join('.') : '(the event)'} is ${found === undefined ? 'missing' : JSON.stringify(found)}, expected ${describeType(expected)}`,
      );
    },
  });
  return problems;
}

/** The symbol an enum declares as its default when it is the "unknown" fallback (UNKNOWN, or unknown for Severity). */
const isUnknownSymbol = (symbol: unknown): boolean => symbol === 'UNKNOWN' || symbol === 'unknown';

/** `path` null: only whether there is any (a '' is pushed per value found, no path made per field on the way). */
type EnumCheck = (value: unknown, path: string | null, out: string[]) => void;
const enumChecks = new Map<ContractRecordType, EnumCheck>();

/** Builds, from a self-contained schema, a function that finds every enum value equal to its UNKNOWN default. */
function enumCheckOf(schema: Json): EnumCheck {
  const named = new Map<string, EnumCheck>();
  const none: EnumCheck = () => undefined;
  const build = (node: Json, namespace: string): EnumCheck => {
    if (typeof node === 'string') return named.get(qualify(node, namespace)) ?? none;
    if (Array.isArray(node)) {
      const branches = node.map((b) => build(b, namespace)).filter((b) => b !== none);
      if (!branches.length) return none;
      // unions here are ["null", X] (decoded unwrapped): the value is X's unless it is null
      return (value, path, out) => {
        if (value !== null) for (const b of branches) b(value, path, out);
      };
    }
    if (!isJsonObject(node)) return none;
    const kind = node['type'];
    if (kind === 'enum') {
      const fullName = fullNameOf(node, namespace);
      const fallback = node['default'];
      const check: EnumCheck = isUnknownSymbol(fallback)
        ? (value, path, out) => {
            if (value === fallback)
              out.push(
                path === null
                  ? ''
                  : `${path} is ${String(fallback)}: the producer wrote a ${fullName} symbol this reader's schema does not ` +
                      `have (${String(fallback)} is the enum's default); upgrade the pipeline's schemas or fix the producer`,
              );
          }
        : none;
      named.set(fullName, check);
      return check;
    }
    if (kind === 'record' || kind === 'error') {
      const fullName = fullNameOf(node, namespace);
      const own = namespaceOfFullName(fullName);
      const fields: [string, EnumCheck][] = [];
      /** the fields that can hold an enum value (known once the schema is built: at the first call) */
      let active: [string, EnumCheck][] | undefined;
      const check: EnumCheck = (value, path, out) => {
        if (!isJsonObject(value as Json)) return;
        active ??= fields.filter(([, f]) => f !== none);
        for (let i = 0; i < active.length; i++) {
          const [name, f] = active[i]!;
          f((value as JsonObject)[name], path === null ? null : path ? `${path}.${name}` : name, out);
        }
      };
      named.set(fullName, check);
      for (const field of Array.isArray(node['fields']) ? node['fields'] : [])
        if (isJsonObject(field) && typeof field['name'] === 'string')
          fields.push([field['name'], build(field['type'] ?? null, own)]);
      return check;
    }
    if (kind === 'array') {
      const items = build(node['items'] ?? null, namespace);
      return (value, path, out) => {
        if (Array.isArray(value))
          for (let i = 0; i < value.length; i++) items(value[i], path === null ? null : `${path}[${i}]`, out);
      };
    }
    if (kind === 'map') {
      const values = build(node['values'] ?? null, namespace);
      return (value, path, out) => {
        if (isJsonObject(value as Json))
          for (const [k, v] of Object.entries(value as JsonObject))
            values(v, path === null ? null : `${path}.${k}`, out);
      };
    }
    if (typeof kind === 'string' && !PRIMITIVES.has(kind)) return build(kind, namespace);
    if (isJsonObject(kind as Json) || Array.isArray(kind)) return build(kind as Json, namespace);
    return none;
  };
  return build(schema, '');
}

/**
 * Every value of a decoded record that is its enum's UNKNOWN default, as a problem naming its path: what a reader
 * reads for a symbol added after its schema. Such a value must never be judged as if it were a known one.
 */
export function unknownEnumValues(type: ContractRecordType, data: unknown): string[] {
  let check = enumChecks.get(type);
  if (!check) enumChecks.set(type, (check = enumCheckOf(recordSchema(type))));
  const out: string[] = [];
  check(data, null, out);
  if (!out.length) return out;
  // found: checked again, with the paths, for the messages
  out.length = 0;
  check(data, '', out);
  return out;
}
