import { ALTERNATIVE_READINGS } from '@table-audit/rules';
const by: Record<string,string[]> = {};
for (const a of ALTERNATIVE_READINGS) (by[a.game] ??= []).push(a.key);
console.log(JSON.stringify(by));
