/**
 * Schema registries: the port the codecs use, and the file-backed registry over schemas/registry.json that stands
 * in for a Confluent registry in the embedded setup and in tests (the Confluent adapter is in confluent.ts).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type avro from 'avsc';
import {
  createType,
  recordSchema,
  fullNameOf,
  isJsonObject,
  parseNamedSchema,
  schemaDefinitions,
  schemaFingerprint,
  type JsonObject,
  type NamedSchema,
} from './avro.ts';
import {
  IncompatibleSchemaError,
  ReadOnlyRegistryError,
  RegistryFileError,
  UnknownSchemaIdError,
  UnknownSubjectError,
} from './errors.ts';
import { AUDIT_RECORD_TYPES, TABLE_EVENT_TYPE_LIST, type ContractRecordType } from './events.ts';
import { checkReadableByPipeline } from './wire.ts';

/**
 * What the codecs need of a schema registry. Subjects are record full names (e.g. "ta.f3cp.BetPlaced",
 * "ta.common.TableOpened"); a record that moved namespace starts a new subject and its old one stays, so that ids
 * already issued keep decoding.
 */
export interface SchemaRegistry {
  /** Registers a self-contained schema under its full name; the same schema again gives the same id. */
  register(schema: string | JsonObject): Promise<number>;
  /** The avsc type of a registered schema; UnknownSchemaIdError when there is none. */
  schemaById(id: number): Promise<avro.Type>;
  /** The id of the latest version registered for a full name; UnknownSubjectError when there is none. */
  latestIdFor(fullName: string): Promise<number>;
}

export interface RegistryEntry {
  readonly id: number;
  readonly fullName: string;
  /** 1, 2, … per full name, in registration order */
  readonly version: number;
  /** schemaFingerprint of the schema (SHA-256 hex) */
  readonly fingerprint: string;
  /** the schema as registered, JSON text */
  readonly schema: string;
}

/** The committed registry of this repository. */
export const COMMITTED_REGISTRY_PATH = fileURLToPath(new URL('../registry.json', import.meta.url));

export interface FileSchemaRegistryOptions {
  /** refuse to register anything new (tests, and services reading the committed file) */
  readOnly?: boolean;
}

/**
 * A registry kept in a JSON file: id → { fullName, version, fingerprint, schema }. Ids are global and never change
 * once written: the file is only ever appended to, a schema already in it keeps its id, and a new version of a
 * record gets the next free id. Every new version must be able to read every earlier one (BACKWARD_TRANSITIVE),
 * since consumers read all stored events with the latest version.
 *
 * One process writes the file at a time (the developer registering new schemas); readers load it once.
 */
export class FileSchemaRegistry implements SchemaRegistry {
  private readonly entriesById = new Map<number, RegistryEntry>();
  private readonly typesById = new Map<number, avro.Type>();
  /** ids per full name, in version order */
  private readonly idsByName = new Map<string, number[]>();
  /** registrations run one at a time, so that concurrent calls cannot hand out one id twice */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly path: string,
    readonly readOnly: boolean,
  ) {}

  /** Opens a registry file; a writable registry whose file does not exist yet starts empty. */
  static async open(
    path: string = COMMITTED_REGISTRY_PATH,
    options: FileSchemaRegistryOptions = {},
  ): Promise<FileSchemaRegistry> {
    const registry = new FileSchemaRegistry(path, options.readOnly ?? false);
    let text: string | undefined;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' || registry.readOnly)
        throw new RegistryFileError(path, `cannot be read (${(error as Error).message})`);
    }
    if (text !== undefined) registry.load(text);
    return registry;
  }

  register(schema: string | JsonObject): Promise<number> {
    const result = this.queue.then(() => this.registerNow(schema));
    this.queue = result.catch(() => undefined);
    return result;
  }

  async schemaById(id: number): Promise<avro.Type> {
    const type = this.typesById.get(id);
    if (!type) throw new UnknownSchemaIdError(id, this.describe());
    return type;
  }

  async latestIdFor(fullName: string): Promise<number> {
    const ids = this.idsByName.get(fullName);
    const latest = ids?.[ids.length - 1];
    if (latest === undefined) throw new UnknownSubjectError(fullName, this.describe());
    return latest;
  }

  /** Every entry, in id order. */
  entries(): RegistryEntry[] {
    return [...this.entriesById.values()].sort((a, b) => a.id - b.id);
  }

  /** The entries of one full name, in version order. */
  versionsOf(fullName: string): RegistryEntry[] {
    return (this.idsByName.get(fullName) ?? []).map((id) => this.entriesById.get(id)!);
  }

  private describe(): string {
    return `the file schema registry ${this.path}`;
  }

  private async registerNow(schema: string | JsonObject): Promise<number> {
    const parsed = parseNamedSchema(schema);
    const fullName = fullNameOf(parsed);
    const type = createType(parsed, fullName);
    const fingerprint = schemaFingerprint(parsed);
    const earlierIds = this.idsByName.get(fullName) ?? [];
    const known = earlierIds.find((id) => this.entriesById.get(id)!.fingerprint === fingerprint);
    if (known !== undefined) return known;
    if (this.readOnly) throw new ReadOnlyRegistryError(this.path, fullName);
    // BACKWARD_TRANSITIVE alone lets through what the pipeline cannot read (a field renamed with an alias: the
    // new version reads old data, but the pipeline's reader, which has the old name, cannot read the new data)
    checkReadableByPipeline(fullName, type);
    // A record that moved namespace names its former full names as aliases: it must read their data too, since
    // events written under the old subject are read with the new one.
    const aliases = Array.isArray(parsed['aliases'])
      ? parsed['aliases'].filter((a): a is string => typeof a === 'string' && a.includes('.'))
      : [];
    const predecessors = [...earlierIds, ...aliases.flatMap((alias) => this.idsByName.get(alias) ?? [])];
    for (const id of predecessors) {
      const earlier = this.entriesById.get(id)!;
      try {
        type.createResolver(this.typesById.get(id)!);
      } catch (error) {
        throw new IncompatibleSchemaError(
          earlier.fullName === fullName ? fullName : `${fullName} (alias of ${earlier.fullName})`,
          earlier.version,
          (error as Error).message,
        );
      }
    }
    const id = Math.max(0, ...this.entriesById.keys()) + 1;
    const entry: RegistryEntry = {
      id,
      fullName,
      version: earlierIds.length + 1,
      fingerprint,
      schema: JSON.stringify(parsed),
    };
    this.add(entry, type);
    try {
      await this.save();
    } catch (error) {
      this.entriesById.delete(id);
      this.typesById.delete(id);
      this.idsByName.get(fullName)!.pop();
      throw new RegistryFileError(this.path, `cannot be written (${(error as Error).message})`);
    }
    return id;
  }

  private add(entry: RegistryEntry, type: avro.Type): void {
    this.entriesById.set(entry.id, entry);
    this.typesById.set(entry.id, type);
    const ids = this.idsByName.get(entry.fullName) ?? [];
    ids.push(entry.id);
    this.idsByName.set(entry.fullName, ids);
  }

  /** Loads and checks the file: every id, version and fingerprint must be as this class would have written it. */
  private load(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new RegistryFileError(this.path, `is not JSON (${(error as Error).message})`);
    }
    if (!isJsonObject(parsed)) throw new RegistryFileError(this.path, 'must be a JSON object of id → entry');
    const ids = Object.keys(parsed)
      .map((key) => {
        const id = Number(key);
        if (!Number.isSafeInteger(id) || id < 1 || String(id) !== key)
          throw new RegistryFileError(this.path, `"${key}" is not a schema id (a whole number from 1)`);
        return id;
      })
      .sort((a, b) => a - b);
    for (const id of ids) {
      const raw = parsed[String(id)];
      const problem = (what: string): RegistryFileError =>
        new RegistryFileError(this.path, `entry ${id}: ${what}`);
      if (
        !isJsonObject(raw) ||
        typeof raw['fullName'] !== 'string' ||
        typeof raw['version'] !== 'number' ||
        typeof raw['fingerprint'] !== 'string' ||
        typeof raw['schema'] !== 'string'
      )
        throw problem(
          'needs fullName, version, fingerprint (strings, version a number) and schema (JSON text)',
        );
      let schema: NamedSchema;
      try {
        schema = parseNamedSchema(raw['schema']);
      } catch (error) {
        throw problem((error as Error).message);
      }
      const fullName = fullNameOf(schema);
      if (fullName !== raw['fullName']) throw problem(`its schema is ${fullName}, not ${raw['fullName']}`);
      if (schemaFingerprint(schema) !== raw['fingerprint'])
        throw problem(`the fingerprint does not match the schema (was the schema edited?)`);
      const expectedVersion = (this.idsByName.get(fullName)?.length ?? 0) + 1;
      if (raw['version'] !== expectedVersion)
        throw problem(
          `it is version ${raw['version']} of ${fullName}, but the versions before it make it ${expectedVersion}`,
        );
      let type: avro.Type;
      try {
        type = createType(schema, fullName);
      } catch (error) {
        throw problem((error as Error).message);
      }
      this.add(
        { id, fullName, version: expectedVersion, fingerprint: raw['fingerprint'], schema: raw['schema'] },
        type,
      );
    }
  }

  private async save(): Promise<void> {
    const file: Record<string, Omit<RegistryEntry, 'id'>> = {};
    for (const { id, ...rest } of this.entries()) file[String(id)] = rest;
    // Written whole to a temporary file, then renamed over the old one: a crash never leaves half a registry.
    const temporary = `${this.path}.${process.pid}.tmp`;
    await mkdir(dirname(this.path), { recursive: true });
    await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`);
    await rename(temporary, this.path);
  }
}

/**
 * Registers the current schema of every record of the contract: the events (in TABLE_EVENT_TYPE_LIST order), then the
 * audit records (AUDIT_RECORD_TYPES order); returns the ids by type.
 */
export async function registerEventSchemas(
  registry: SchemaRegistry,
  definitions = schemaDefinitions(),
): Promise<Record<ContractRecordType, number>> {
  const ids = {} as Record<ContractRecordType, number>;
  for (const type of [...TABLE_EVENT_TYPE_LIST, ...AUDIT_RECORD_TYPES])
    ids[type] = await registry.register(recordSchema(type, definitions));
  return ids;
}
