/**
 * Writes schemas/src/generated.ts from schemas/avro/*.avsc (formatted like the rest of the repository).
 * Run after changing a schema: `pnpm --filter @table-audit/schemas generate-types`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { readSchemaFiles, AVRO_DIR } from '../src/avro.ts';
import { generateTypeScript } from '../src/codegen.ts';

export const GENERATED_PATH = fileURLToPath(new URL('../src/generated.ts', import.meta.url));

/** The content generated.ts should have for the .avsc files of `dir`. */
export async function renderGeneratedTypes(dir = AVRO_DIR): Promise<string> {
  const code = generateTypeScript(readSchemaFiles(dir));
  const config = await resolveConfig(GENERATED_PATH);
  return format(code, { ...config, filepath: GENERATED_PATH });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const content = await renderGeneratedTypes();
  const before = (() => {
    try {
      return readFileSync(GENERATED_PATH, 'utf8');
    } catch {
      return '';
    }
  })();
  writeFileSync(GENERATED_PATH, content);
  console.log(`${GENERATED_PATH}: ${before === content ? 'unchanged' : 'written'}`);
}
