import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import {
  isJsonObject,
  recordFullName,
  schemaDefinitions,
  selfContained,
  type Json,
  type JsonObject,
  type NamedSchema,
} from '../src/avro.ts';
import { generateTypeScript, topLevelRecords } from '../src/codegen.ts';
import {
  AUDIT_RECORD_TYPES,
  FORMER_FULL_NAMES,
  RECORD_FULL_NAMES,
  TABLE_EVENT_TYPE_LIST,
} from '../src/events.ts';
import { GENERATED_PATH, renderGeneratedTypes } from '../scripts/generate-types.ts';

const EVENTS_PATH = fileURLToPath(new URL('../src/events.ts', import.meta.url));
const ALL_TYPES = [...TABLE_EVENT_TYPE_LIST, ...AUDIT_RECORD_TYPES];

/** A deep copy of the current definitions with one change made by `edit`. */
function mutate(edit: (definitions: Map<string, NamedSchema>) => void): Map<string, NamedSchema> {
  const copy = new Map(
    [...schemaDefinitions()].map(
      ([name, schema]) => [name, structuredClone(schema)] as [string, NamedSchema],
    ),
  );
  edit(copy);
  return copy;
}

const fieldOf = (definitions: Map<string, NamedSchema>, record: string, field: string): JsonObject =>
  (definitions.get(record)!['fields'] as JsonObject[]).find((f) => f['name'] === field)!;

/** Field names in order, recursively through records, arrays and nullable unions, as the .avsc file has them. */
function avroShape(schema: Json): Json {
  if (Array.isArray(schema)) {
    const branches = schema.filter((b) => b !== 'null');
    return branches.length === 1 ? avroShape(branches[0]!) : null;
  }
  if (!isJsonObject(schema)) return null;
  if (schema['type'] === 'array') return [avroShape(schema['items'] ?? null)];
  if (schema['type'] !== 'record') return null;
  return (schema['fields'] as JsonObject[]).map((f) => [String(f['name']), avroShape(f['type'] ?? null)]);
}

/** Schema changes, and a value typed with the record that must stop compiling when the types follow them. */
const DRIFTS: { name: string; snippet: string; definitions: Map<string, NamedSchema> }[] = [
  {
    name: 'a renamed field (BetPlaced.amount → stake)',
    snippet: `export const x: BetPlaced['amount'] = 1;`,
    definitions: mutate((d) => void (fieldOf(d, 'ta.f3cp.BetPlaced', 'amount')['name'] = 'stake')),
  },
  {
    name: 'a field no longer nullable (CardDealt.seat)',
    snippet: `export const x: CardDealt['seat'] = null;`,
    definitions: mutate((d) => {
      const seat = fieldOf(d, 'ta.f3cp.CardDealt', 'seat');
      seat['type'] = 'int';
      delete seat['default'];
    }),
  },
  {
    name: 'an enum symbol removed (ObservationKind without OTHER)',
    snippet: `export const x: ObservationKind = 'OTHER';`,
    definitions: mutate((d) => {
      const kind = fieldOf(d, 'ta.common.SurveillanceObservation', 'kind')['type'] as JsonObject;
      kind['symbols'] = (kind['symbols'] as string[]).filter((s) => s !== 'OTHER');
    }),
  },
  {
    name: 'a record removed (no RoundSettled.avsc)',
    snippet: `export type X = CommonRecords['RoundSettled'];`,
    definitions: mutate((d) => void d.delete('ta.common.RoundSettled')),
  },
];

describe('generated.ts', () => {
  it('is what the generator makes of the .avsc files (else run generate-types)', async () => {
    assert.equal(
      readFileSync(GENERATED_PATH, 'utf8'),
      await renderGeneratedTypes(),
      'schemas/src/generated.ts is stale: run `pnpm --filter @table-audit/schemas generate-types`',
    );
  });

  it('lists every top-level record of each namespace with its full name and its former ones (aliases)', () => {
    const records = topLevelRecords(schemaDefinitions());
    assert.deepEqual(
      Object.values(RECORD_FULL_NAMES).sort(),
      [...records.values()].flat().sort(),
      'RECORD_FULL_NAMES',
    );
    assert.deepEqual(
      [...ALL_TYPES].map(recordFullName).sort(),
      [...records.values()].flat().sort(),
      'TABLE_EVENT_TYPE_LIST and AUDIT_RECORD_TYPES name every top-level record',
    );
    for (const [former, type] of Object.entries(FORMER_FULL_NAMES)) {
      assert.match(former, /^ta\.f3cp\./);
      assert.deepEqual(schemaDefinitions().get(recordFullName(type))!['aliases'], [former]);
    }
    assert.equal(Object.keys(FORMER_FULL_NAMES).length, records.get('ta.common')!.length - 1); // all but EventCorrected
  });

  it('maps Avro types to TypeScript: nullable unions, enums, arrays, maps, bytes, logical types', () => {
    const definitions = new Map<string, NamedSchema>([
      [
        'ta.audit.Sample',
        {
          type: 'record',
          name: 'Sample',
          namespace: 'ta.audit',
          doc: 'A sample */ with a comment end.',
          fields: [
            { name: 'when', type: { type: 'long', logicalType: 'timestamp-millis' } },
            { name: 'maybe', type: ['null', 'string'], default: null },
            { name: 'later', type: ['null', 'string'], default: null, optionalInCode: true },
            { name: 'notOptional', type: 'string', optionalInCode: true },
            { name: 'tags', type: { type: 'array', items: ['null', 'int'] } },
            { name: 'counts', type: { type: 'map', values: 'long' } },
            { name: 'raw', type: 'bytes' },
            { name: 'mood', type: { type: 'enum', name: 'Mood', symbols: ['CALM', 'TENSE'] } },
          ],
        },
      ],
    ]);
    const code = generateTypeScript(definitions);
    assert.match(code, /\/\*\* A sample \*\\\/ with a comment end\. \*\/\nexport interface Sample \{/);
    for (const line of [
      '  when: number;',
      '  maybe: string | null;',
      '  later?: string | null;',
      '  notOptional: string;',
      '  tags: (number | null)[];',
      '  counts: Record<string, number>;',
      '  raw: Buffer;',
      '  mood: Mood;',
      "export type Mood = 'CALM' | 'TENSE';",
      '  Sample: Sample;',
      "  Sample: 'ta.audit.Sample',",
    ])
      assert.ok(code.split('\n').includes(line), `missing: ${line}\n${code}`);
  });

  it('refuses a namespace outside the contract, and two types that would share a TypeScript name', () => {
    assert.throws(
      () =>
        generateTypeScript(
          mutate((d) => d.set('ta.poker.X', { type: 'enum', name: 'X', namespace: 'ta.poker' })),
        ),
      /ta\.poker\.X: the namespaces are ta\.common, ta\.f3cp, ta\.craps, ta\.thirteen, ta\.mahjong, ta\.audit/,
    );
    const clash = mutate((d) => {
      const copy = structuredClone(d.get('ta.f3cp.BetType')!);
      d.set('ta.audit.BetType', { ...copy, namespace: 'ta.audit' });
      (d.get('ta.audit.FindingRaised')!['fields'] as Json[]).push({ name: 'bet', type: 'ta.audit.BetType' });
    });
    assert.throws(
      () => generateTypeScript(clash),
      /ta\.(audit|f3cp)\.BetType and ta\.(audit|f3cp)\.BetType would both be called BetType/,
    );
  });

  describe('type-checked', () => {
    let dir: string;
    let program: ts.Program;
    const generatedPath = (index: number): string => join(dir, `drift-${index}`, 'generated.ts');
    const snippetPath = (index: number): string => join(dir, `drift-${index}`, 'snippet.ts');
    const currentSnippet = (): string => join(dir, 'current.ts');

    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'schemas-types-'));
      const names = 'BetPlaced, CardDealt, CommonRecords, ObservationKind';
      DRIFTS.forEach((drift, index) => {
        mkdirSync(join(dir, `drift-${index}`));
        writeFileSync(generatedPath(index), generateTypeScript(drift.definitions));
        writeFileSync(
          snippetPath(index),
          `import type { ${names} } from './generated.ts';\n${drift.snippet}\n`,
        );
      });
      // every snippet compiles against the committed types: what fails in a drift is the drift
      writeFileSync(
        currentSnippet(),
        `import type { ${names} } from '${GENERATED_PATH}';\n${DRIFTS.map((d, i) => d.snippet.replace('const x', `const x${i}`).replace('type X', `type X${i}`)).join('\n')}\n`,
      );
      // One program for everything: creating a program is the slow part.
      program = ts.createProgram(
        [GENERATED_PATH, EVENTS_PATH, currentSnippet(), ...DRIFTS.flatMap((_, i) => [snippetPath(i)])],
        {
          strict: true,
          noEmit: true,
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          moduleResolution: ts.ModuleResolutionKind.Bundler,
          allowImportingTsExtensions: true,
          skipLibCheck: true,
          types: ['node'],
          lib: ['lib.es2022.d.ts'],
        },
      );
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    const errorLines = (path: string): string[] => {
      const file = program.getSourceFile(path)!;
      return ts.getPreEmitDiagnostics(program, file).map((d) => {
        const line = file.getLineAndCharacterOfPosition(d.start ?? 0).line;
        return `${file.text.split('\n')[line]!.trim()}  ← ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
      });
    };

    it('compiles: generated.ts, events.ts, and values of the current types', () => {
      assert.deepEqual(errorLines(GENERATED_PATH), []);
      assert.deepEqual(errorLines(EVENTS_PATH), []);
      assert.deepEqual(errorLines(currentSnippet()), []);
    });

    DRIFTS.forEach((drift, index) => {
      it(`follows the schema on ${drift.name}: code written for the old type stops compiling`, () => {
        const errors = errorLines(snippetPath(index));
        assert.ok(errors.length > 0, `the snippet still compiles:\n${drift.snippet}`);
      });
    });

    it('gives every record the fields of its .avsc, in the same order, nested records included', () => {
      const checker = program.getTypeChecker();
      const module = checker.getSymbolAtLocation(program.getSourceFile(GENERATED_PATH)!)!;
      const exported = (name: string): ts.Type =>
        checker.getDeclaredTypeOfSymbol(checker.getExportsOfModule(module).find((s) => s.name === name)!);
      const shape = (type: ts.Type): Json => {
        // a field optional in code (`"optionalInCode"`) is also undefined: neither null nor undefined is a shape
        const parts = type.isUnion()
          ? type.types.filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)))
          : [type];
        if (parts.length !== 1) return null;
        const only = parts[0]!;
        if (checker.isArrayType(only)) return [shape(checker.getTypeArguments(only as ts.TypeReference)[0]!)];
        if (!(only.flags & ts.TypeFlags.Object) || only.getSymbol()?.name === 'Buffer') return null;
        return checker.getPropertiesOfType(only).map((p) => [p.name, shape(checker.getTypeOfSymbol(p))]);
      };
      for (const type of ALL_TYPES) {
        const fromTs = shape(exported(type));
        const definitions = schemaDefinitions();
        const fromAvro = avroShape(selfContained(definitions.get(recordFullName(type))!, definitions));
        assert.deepEqual(fromTs, fromAvro, type);
        assert.ok(
          Array.isArray(fromTs) && fromTs.length > 0,
          `${type}: no fields found, the check saw nothing`,
        );
      }
    });

    it('leaves events.ts declaring no record by hand: its interfaces only combine generated ones', () => {
      const file = program.getSourceFile(EVENTS_PATH)!;
      const declared: string[] = [];
      file.forEachChild((node) => {
        if (ts.isInterfaceDeclaration(node)) {
          declared.push(node.name.text);
          assert.equal(
            node.members.length,
            0,
            `${node.name.text} in events.ts declares fields: put them in an .avsc file`,
          );
        }
        if (ts.isTypeAliasDeclaration(node))
          assert.ok(
            !ts.isTypeLiteralNode(node.type),
            `${node.name.text} in events.ts is a record type: put it in an .avsc file`,
          );
      });
      assert.deepEqual(declared.sort(), [
        'ContractRecords',
        'CrapsEvents',
        'F3cpEvents',
        'MahjongEvents',
        'ThirteenEvents',
      ]);
    });
  });
});
