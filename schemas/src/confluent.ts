/**
 * The production schema registry: a Confluent-compatible registry (Confluent, Redpanda, Karapace, Apicurio in
 * Confluent mode) through @kafkajs/confluent-schema-registry, behind the same SchemaRegistry port as the file
 * registry. Subjects are record full names ("ta.f3cp.BetPlaced", the RecordNameStrategy), so that one Kafka topic
 * can carry every event type of a table.
 */
import {
  COMPATIBILITY,
  SchemaRegistry as ConfluentClient,
  SchemaType,
} from '@kafkajs/confluent-schema-registry';
import type { SchemaRegistryAPIClientArgs } from '@kafkajs/confluent-schema-registry/dist/api/index.js';
import type avro from 'avsc';
import { createType, fullNameOf, parseNamedSchema, type JsonObject } from './avro.ts';
import { RegistryRequestError, UnknownSchemaIdError, UnknownSubjectError } from './errors.ts';
import type { SchemaRegistry } from './registry.ts';
import { checkReadableByPipeline } from './wire.ts';

export { COMPATIBILITY };

export interface ConfluentSchemaRegistryOptions extends SchemaRegistryAPIClientArgs {
  /**
   * The compatibility level set on a subject when its first schema is registered, and expected on it afterwards.
   * Default BACKWARD_TRANSITIVE: every stored event must stay readable with the latest schema.
   */
  compatibility?: COMPATIBILITY;
}

/** The HTTP status of an error from the client (mappersmith responses), if it has one. */
const statusOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number'
    ? (error as { status: number }).status
    : undefined;

export class ConfluentSchemaRegistry implements SchemaRegistry {
  readonly client: ConfluentClient;
  readonly compatibility: COMPATIBILITY;
  private readonly host: string;

  constructor(options: ConfluentSchemaRegistryOptions) {
    const { compatibility = COMPATIBILITY.BACKWARD_TRANSITIVE, ...clientArgs } = options;
    this.client = new ConfluentClient(clientArgs);
    this.compatibility = compatibility;
    this.host = options.host;
  }

  async register(schema: string | JsonObject): Promise<number> {
    const parsed = parseNamedSchema(schema);
    const fullName = fullNameOf(parsed);
    // a clear error here rather than the registry's 422; and the registry's own compatibility check does not know
    // which reader the pipeline was built with
    checkReadableByPipeline(fullName, createType(parsed, fullName));
    try {
      const { id } = await this.client.register(
        { type: SchemaType.AVRO, schema: JSON.stringify(parsed) },
        { subject: fullName, compatibility: this.compatibility },
      );
      return id;
    } catch (error) {
      throw this.requestError(`register ${fullName}`, error);
    }
  }

  async schemaById(id: number): Promise<avro.Type> {
    try {
      // The client builds the type with avsc and no logical-type hooks, like createType: times stay numbers.
      return (await this.client.getSchema(id)) as unknown as avro.Type;
    } catch (error) {
      if (statusOf(error) === 404) throw new UnknownSchemaIdError(id, `the schema registry at ${this.host}`);
      throw this.requestError(`schema id ${id}`, error);
    }
  }

  async latestIdFor(fullName: string): Promise<number> {
    try {
      return await this.client.getLatestSchemaId(fullName);
    } catch (error) {
      if (statusOf(error) === 404)
        throw new UnknownSubjectError(fullName, `the schema registry at ${this.host}`);
      throw this.requestError(`latest version of ${fullName}`, error);
    }
  }

  private requestError(what: string, error: unknown): RegistryRequestError {
    return new RegistryRequestError(
      `${what} at ${this.host}`,
      statusOf(error),
      error instanceof Error ? error.message : String(error),
    );
  }
}
