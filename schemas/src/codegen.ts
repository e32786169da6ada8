/**
 * TypeScript types generated from the .avsc files, with compile-time assertions that they and the hand-written
 * types of events.ts are mutually assignable: when a schema and events.ts disagree, `pnpm typecheck` fails on the
 * line of the event type concerned. schemas/scripts/generate-types.ts writes the result to src/generated.ts; a
 * test checks that regenerating gives the committed file.
 */
import {
  eventFullName,
  fullNameOf,
  HEADER_FULL_NAME,
  isJsonObject,
  selfContained,
  type Json,
  type NamedSchema,
} from './avro.ts';
import { F3CP_EVENT_TYPES } from './events.ts';

export interface GenerateTypesOptions {
  /** how the generated file imports events.ts */
  eventsModule?: string;
}

const NUMBERS = new Set(['int', 'long', 'float', 'double']);

const shortName = (fullName: string): string => fullName.slice(fullName.lastIndexOf('.') + 1);
const comment = (doc: Json | undefined, indent = ''): string =>
  typeof doc === 'string' ? `${indent}/** ${doc.replaceAll('*/', '*\\/')} */\n` : '';

/** The event records of a set of definitions: records of ta.f3cp whose first field is the EventHeader. */
export function eventRecordNames(definitions: ReadonlyMap<string, NamedSchema>): string[] {
  const known = F3CP_EVENT_TYPES.map(eventFullName).filter((name) => definitions.has(name));
  const others = [...definitions.keys()]
    .filter((name) => !known.includes(name) && name.startsWith('ta.f3cp.'))
    .filter((name) => {
      const fields = definitions.get(name)!['fields'];
      const first = Array.isArray(fields) ? fields[0] : undefined;
      return isJsonObject(first) && first['name'] === 'header';
    })
    .sort();
  return [...known, ...others];
}

export function generateTypeScript(
  definitions: ReadonlyMap<string, NamedSchema>,
  options: GenerateTypesOptions = {},
): string {
  const declarations = new Map<string, string>(); // full name → declaration, in order of first use
  const shortNames = new Map<string, string>();

  const declare = (schema: NamedSchema, namespace: string): string => {
    const fullName = fullNameOf(schema, namespace);
    const name = shortName(fullName);
    const taken = shortNames.get(name);
    if (taken && taken !== fullName) throw new Error(`${fullName} and ${taken} would both be called ${name}`);
    shortNames.set(name, fullName);
    if (declarations.has(fullName)) return name;
    declarations.set(fullName, ''); // reserve the place before nested types
    const ownNamespace = fullName.slice(0, fullName.lastIndexOf('.'));
    if (schema.type === 'enum') {
      const symbols = (schema['symbols'] as string[]).map((s) => `'${s}'`).join(' | ');
      declarations.set(fullName, `${comment(schema['doc'])}export type ${name} = ${symbols};\n`);
    } else if (schema.type === 'fixed') {
      declarations.set(fullName, `${comment(schema['doc'])}export type ${name} = Buffer;\n`);
    } else {
      const fields = (schema['fields'] as Json[]).filter(isJsonObject).map((field) => {
        const type = typeExpression(field['type'] ?? null, ownNamespace);
        return `${comment(field['doc'], '  ')}  ${String(field['name'])}: ${type};\n`;
      });
      declarations.set(
        fullName,
        `${comment(schema['doc'])}export interface ${name} {\n${fields.join('')}}\n`,
      );
    }
    return name;
  };

  const typeExpression = (schema: Json, namespace: string): string => {
    if (typeof schema === 'string') {
      if (schema === 'null') return 'null';
      if (schema === 'boolean') return 'boolean';
      if (schema === 'string') return 'string';
      if (schema === 'bytes') return 'Buffer';
      if (NUMBERS.has(schema)) return 'number';
      return shortName(schema); // a reference: selfContained made it a full name defined earlier
    }
    if (Array.isArray(schema)) {
      const branches = schema.map((branch) => typeExpression(branch, namespace));
      const nonNull = branches.filter((b) => b !== 'null');
      return [...nonNull, ...(nonNull.length < branches.length ? ['null'] : [])].join(' | ');
    }
    if (!isJsonObject(schema)) throw new Error(`not a type: ${JSON.stringify(schema)}`);
    const kind = schema['type'];
    if (kind === 'array') {
      const items = typeExpression(schema['items'] ?? null, namespace);
      return items.includes(' | ') ? `(${items})[]` : `${items}[]`;
    }
    if (kind === 'map') return `Record<string, ${typeExpression(schema['values'] ?? null, namespace)}>`;
    if (kind === 'record' || kind === 'error' || kind === 'enum' || kind === 'fixed')
      return declare(schema as NamedSchema, namespace);
    return typeExpression(kind ?? null, namespace); // a primitive with attributes, e.g. a logical type
  };

  const events = eventRecordNames(definitions);
  for (const fullName of [HEADER_FULL_NAME, ...events]) {
    const definition = definitions.get(fullName);
    if (definition) declare(selfContained(definition, definitions), '');
  }
  const eventsModule = options.eventsModule ?? './events.ts';
  const eventNames = events.map(shortName);
  return [
    `// Generated from schemas/avro/*.avsc by schemas/scripts/generate-types.ts. Do not edit: change the .avsc`,
    `// files (and events.ts), then run \`pnpm --filter @table-audit/schemas generate-types\`.`,
    `import type * as events from '${eventsModule}';`,
    ``,
    ...declarations.values(),
    `/** Every event record of schemas/avro, by name. */`,
    `export interface AvroEvents {`,
    ...eventNames.map((name) => `  ${name}: ${name};`),
    `}`,
    ``,
    `// The schemas and events.ts must describe the same data: each line below fails to compile when the event's`,
    `// Avro record and its TypeScript type are not assignable to each other both ways (a field renamed, missing`,
    `// or added, a nullability or type changed, an enum symbol missing on one side), or when an event type`,
    `// exists on one side only.`,
    `type Agree<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;`,
    `type Agreement = {`,
    `  readonly [K in events.F3cpEventType | keyof AvroEvents]: K extends events.F3cpEventType`,
    `    ? K extends keyof AvroEvents`,
    `      ? Agree<AvroEvents[K], events.F3cpEvents[K]>`,
    `      : 'no .avsc record for this event type'`,
    `    : 'no event type in events.ts for this record';`,
    `};`,
    `const _headerAgrees: Agree<EventHeader, events.EventHeader> = true;`,
    `const _agreement: Agreement = {`,
    ...eventNames.map((name) => `  ${name}: true,`),
    `};`,
    ``,
  ].join('\n');
}
