/**
 * The one source of the contract's TypeScript types: generated from the .avsc files. Every named type becomes an
 * interface (record) or a string-literal union (enum); each namespace's top-level records are listed by name
 * (CommonRecords, F3cpRecords, AuditRecords), with their full names and former full names (Avro aliases) as
 * constants. events.ts adds only what cannot be generated (the discriminated unions, the ordered type lists).
 * schemas/scripts/generate-types.ts writes the result to src/generated.ts; a test checks that regenerating gives
 * the committed file.
 */
import {
  fullNameOf,
  HEADER_FULL_NAME,
  isJsonObject,
  selfContained,
  type Json,
  type NamedSchema,
} from './avro.ts';

const NUMBERS = new Set(['int', 'long', 'float', 'double']);

const shortName = (fullName: string): string => fullName.slice(fullName.lastIndexOf('.') + 1);
const namespaceOf = (fullName: string): string => fullName.slice(0, Math.max(0, fullName.lastIndexOf('.')));
const comment = (doc: Json | undefined, indent = ''): string =>
  typeof doc === 'string' ? `${indent}/** ${doc.replaceAll('*/', '*\\/')} */\n` : '';

/** The namespaces of the contract and the name of the interface that lists each one's top-level records. */
export const NAMESPACE_RECORDS = {
  'ta.common': 'CommonRecords',
  'ta.f3cp': 'F3cpRecords',
  'ta.craps': 'CrapsRecords',
  'ta.thirteen': 'ThirteenRecords',
  'ta.mahjong': 'MahjongRecords',
  'ta.audit': 'AuditRecords',
} as const;

const isEventRecord = (schema: NamedSchema): boolean => {
  const fields = schema['fields'];
  const first = Array.isArray(fields) ? fields[0] : undefined;
  return schema.type === 'record' && isJsonObject(first) && first['name'] === 'header';
};

/**
 * The top-level records of a set of definitions, by namespace, sorted by name: in ta.common and ta.f3cp the
 * events (records whose first field is the header), in ta.audit every record.
 */
export function topLevelRecords(definitions: ReadonlyMap<string, NamedSchema>): Map<string, string[]> {
  const byNamespace = new Map<string, string[]>(Object.keys(NAMESPACE_RECORDS).map((ns) => [ns, []]));
  for (const [fullName, schema] of [...definitions].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const namespace = namespaceOf(fullName);
    const list = byNamespace.get(namespace);
    if (!list)
      throw new Error(`${fullName}: the namespaces are ${Object.keys(NAMESPACE_RECORDS).join(', ')}`);
    if (namespace === 'ta.audit' ? schema.type === 'record' : isEventRecord(schema)) list.push(fullName);
  }
  return byNamespace;
}

/** The former full names of a top-level record (its Avro aliases, qualified in its namespace). */
export function formerFullNames(schema: NamedSchema, fullName: string): string[] {
  const aliases = schema['aliases'];
  if (!Array.isArray(aliases)) return [];
  return aliases.map((alias) => {
    if (typeof alias !== 'string') throw new Error(`${fullName}: an alias is not a string`);
    return alias.includes('.') ? alias : `${namespaceOf(fullName)}.${alias}`;
  });
}

export function generateTypeScript(definitions: ReadonlyMap<string, NamedSchema>): string {
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
        // a field added with a null default that code built before it may leave out: optional in TypeScript
        // (`"optionalInCode": true`; a writer that leaves it out writes its default, a reader reads null)
        const optional = field['optionalInCode'] === true && field['default'] === null ? '?' : '';
        return `${comment(field['doc'], '  ')}  ${String(field['name'])}${optional}: ${type};\n`;
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

  const records = topLevelRecords(definitions);
  for (const fullName of [HEADER_FULL_NAME, ...[...records.values()].flat()]) {
    const definition = definitions.get(fullName);
    if (definition) declare(selfContained(definition, definitions), '');
  }
  const lists: string[] = [];
  const fullNames: string[] = [];
  const formerNames: string[] = [];
  for (const [namespace, names] of records) {
    const interfaceName = NAMESPACE_RECORDS[namespace as keyof typeof NAMESPACE_RECORDS];
    const what = namespace === 'ta.audit' ? 'records' : 'event records';
    lists.push(
      `/** The top-level ${what} of ${namespace}, by name. */`,
      `export interface ${interfaceName} {`,
      ...names.map((name) => `  ${shortName(name)}: ${shortName(name)};`),
      `}`,
      ``,
    );
    for (const name of names) {
      fullNames.push(`  ${shortName(name)}: '${name}',`);
      for (const former of formerFullNames(definitions.get(name)!, name))
        formerNames.push(`  '${former}': '${shortName(name)}',`);
    }
  }
  return [
    `// Generated from schemas/avro/*.avsc by schemas/scripts/generate-types.ts. Do not edit: change the .avsc`,
    `// files, then run \`pnpm --filter @table-audit/schemas generate-types\`.`,
    ``,
    ...declarations.values(),
    ...lists,
    `/** The Avro full name of every top-level record. */`,
    `export const RECORD_FULL_NAMES = {`,
    ...fullNames,
    `} as const;`,
    ``,
    `/** Full names records had before (their Avro aliases): data written under them reads as the record named. */`,
    `export const FORMER_FULL_NAMES = {`,
    ...formerNames,
    `} as const;`,
    ``,
  ].join('\n');
}
