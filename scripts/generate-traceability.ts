// Writes docs/traceability.md from the traceability matrix in packages/rules/src/traceability/.
// Run: node --import ./apps/cli/bin/register-ts.mjs scripts/generate-traceability.ts
import { writeFileSync } from 'node:fs';
import { traceabilityCounts, traceabilityMarkdown } from '../packages/rules/src/traceability/index.ts';

const target = new URL('../docs/traceability.md', import.meta.url);
writeFileSync(target, traceabilityMarkdown());
const counts = traceabilityCounts();
console.log(
  `docs/traceability.md: ${counts.reduce((n, c) => n + c.provisions, 0)} provisions of ${counts.length} diplomas`,
);
