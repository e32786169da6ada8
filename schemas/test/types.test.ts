import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import { schemaDefinitions, type Json, type JsonObject, type NamedSchema } from '../src/avro.ts';
import { generateTypeScript } from '../src/codegen.ts';
import { F3CP_EVENT_TYPES } from '../src/events.ts';
import { GENERATED_PATH, renderGeneratedTypes } from '../scripts/generate-types.ts';

const EVENTS_PATH = fileURLToPath(new URL('../src/events.ts', import.meta.url));

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

/** Schema changes events.ts does not follow, and the line of the generated file that must then fail. */
const DRIFTS: { name: string; failingLine: string; definitions: Map<string, NamedSchema> }[] = [
  {
    name: 'a renamed field (BetPlaced.amount → stake)',
    failingLine: 'BetPlaced: true',
    definitions: mutate((d) => void (fieldOf(d, 'ta.f3cp.BetPlaced', 'amount')['name'] = 'stake')),
  },
  {
    name: 'a changed nullability (CardDealt.seat no longer nullable)',
    failingLine: 'CardDealt: true',
    definitions: mutate((d) => {
      const seat = fieldOf(d, 'ta.f3cp.CardDealt', 'seat');
      seat['type'] = 'int';
      delete seat['default'];
    }),
  },
  {
    name: 'a missing enum symbol (ObservationKind without OTHER)',
    failingLine: 'SurveillanceObservation: true',
    definitions: mutate((d) => {
      const kind = fieldOf(d, 'ta.f3cp.SurveillanceObservation', 'kind')['type'] as JsonObject;
      kind['symbols'] = (kind['symbols'] as string[]).filter((s) => s !== 'OTHER');
    }),
  },
  {
    name: 'an extra enum symbol in a shared enum (BetType + LUCKY_SEVEN)',
    failingLine: 'BetCollected: true',
    definitions: mutate((d) => void (d.get('ta.f3cp.BetType')!['symbols'] as string[]).push('LUCKY_SEVEN')),
  },
  {
    name: 'an added field, even with a default (RoundSettled.note)',
    failingLine: 'RoundSettled: true',
    definitions: mutate((d) =>
      (d.get('ta.f3cp.RoundSettled')!['fields'] as Json[]).push({
        name: 'note',
        type: ['null', 'string'],
        default: null,
        doc: 'a note',
      }),
    ),
  },
  {
    name: 'a changed header field type (EventHeader.sequence as string)',
    failingLine: 'const _headerAgrees',
    definitions: mutate((d) => void (fieldOf(d, 'ta.common.EventHeader', 'sequence')['type'] = 'string')),
  },
  {
    name: 'an event type without a record (no RoundSettled.avsc)',
    failingLine: 'const _agreement',
    definitions: mutate((d) => void d.delete('ta.f3cp.RoundSettled')),
  },
];

/** Compiles, since TypeScript ignores field order; the order check must catch it. */
const REORDERED = mutate((d) => {
  const fields = d.get('ta.f3cp.BetPlaced')!['fields'] as Json[];
  fields.splice(2, 2, fields[3]!, fields[2]!); // betType and amount swapped
});

describe('generated.ts', () => {
  it('is what the generator makes of the .avsc files (else run generate-types)', async () => {
    assert.equal(
      readFileSync(GENERATED_PATH, 'utf8'),
      await renderGeneratedTypes(),
      'schemas/src/generated.ts is stale: run `pnpm --filter @table-audit/schemas generate-types`',
    );
  });

  describe('type-checked with events.ts', () => {
    let dir: string;
    let program: ts.Program;
    const mutantPath = (index: number): string => join(dir, `drift-${index}.ts`);
    const reorderedPath = (): string => join(dir, 'reordered.ts');

    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'schemas-types-'));
      DRIFTS.forEach((drift, index) =>
        writeFileSync(
          mutantPath(index),
          generateTypeScript(drift.definitions, { eventsModule: EVENTS_PATH }),
        ),
      );
      writeFileSync(reorderedPath(), generateTypeScript(REORDERED, { eventsModule: EVENTS_PATH }));
      // One program for the real file and every drifted one: creating a program is the slow part.
      program = ts.createProgram([GENERATED_PATH, reorderedPath(), ...DRIFTS.map((_, i) => mutantPath(i))], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        allowImportingTsExtensions: true,
        skipLibCheck: true,
        types: [],
        lib: ['lib.es2022.d.ts'],
      });
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    /** The source lines of the errors in a file. */
    const errorLines = (path: string): string[] => {
      const file = program.getSourceFile(path)!;
      return ts.getPreEmitDiagnostics(program, file).map((d) => {
        const line = file.getLineAndCharacterOfPosition(d.start ?? 0).line;
        return `${file.text.split('\n')[line]!.trim()}  ← ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
      });
    };

    it('agrees: the committed types compile against events.ts', () => {
      assert.deepEqual(errorLines(GENERATED_PATH), []);
    });

    DRIFTS.forEach((drift, index) => {
      it(`fails to compile on ${drift.name}`, () => {
        const errors = errorLines(mutantPath(index));
        assert.ok(
          errors.some((line) => line.startsWith(drift.failingLine)),
          `expected an error at "${drift.failingLine}", got:\n${errors.join('\n')}`,
        );
      });
    });

    it('has every record with the fields of events.ts, in the same order, nested records included', () => {
      const checker = program.getTypeChecker();
      const exported = (path: string, name: string): ts.Type => {
        const module = checker.getSymbolAtLocation(program.getSourceFile(path)!)!;
        return checker.getDeclaredTypeOfSymbol(
          checker.getExportsOfModule(module).find((s) => s.name === name)!,
        );
      };
      // Field names in order, recursively through records and arrays of records; other types are compared by
      // the compile-time agreement above.
      const shape = (type: ts.Type): Json => {
        const parts = type.isUnion() ? type.types.filter((t) => !(t.flags & ts.TypeFlags.Null)) : [type];
        if (parts.length !== 1) return null;
        const only = parts[0]!;
        if (checker.isArrayType(only)) return [shape(checker.getTypeArguments(only as ts.TypeReference)[0]!)];
        if (!(only.flags & ts.TypeFlags.Object)) return null;
        return checker.getPropertiesOfType(only).map((p) => [p.name, shape(checker.getTypeOfSymbol(p))]);
      };
      const fieldsOf = (path: string, name: string, type: string): Json =>
        shape(checker.getTypeOfSymbol(exported(path, name).getProperty(type)!));
      for (const type of F3CP_EVENT_TYPES) {
        const fromAvro = fieldsOf(GENERATED_PATH, 'AvroEvents', type);
        assert.deepEqual(fromAvro, fieldsOf(EVENTS_PATH, 'F3cpEvents', type), type);
        assert.ok(
          Array.isArray(fromAvro) && fromAvro.length > 0,
          `${type}: no fields found, the check saw nothing`,
        );
      }
      assert.deepEqual(errorLines(reorderedPath()), []);
      assert.notDeepEqual(
        fieldsOf(reorderedPath(), 'AvroEvents', 'BetPlaced'),
        fieldsOf(EVENTS_PATH, 'F3cpEvents', 'BetPlaced'),
      );
    });
  });
});
