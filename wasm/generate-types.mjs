// Writes the generated declarations of wasm/playground.d.ts from the record tables the engine
// exports (decode/record_schema.hpp through stepRecordSchema()), so the TypeScript types and the
// objects the engine builds come from one source. Needs the wasm build.
//
//   node wasm/generate-types.mjs          rewrite the generated part of playground.d.ts
//   node wasm/generate-types.mjs --check  exit 1 when the committed file differs
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const declarationsPath = fileURLToPath(new URL('playground.d.ts', import.meta.url));
const begin = '// ---- generated from decode/record_schema.hpp by wasm/generate-types.mjs; do not edit ----';
const end = '// ---- end of generated declarations ----';

const tsType = (field) => {
  const base = {
    integer: 'number',
    number: 'number',
    label: field.labels?.map((l) => `'${l}'`).join(' | '),
    token: 'string',
    vector: 'Float32Array',
    matrix: 'Matrix',
    top: 'TopToken[]',
  }[field.type];
  if (!base) throw new Error(`record schema: unknown type ${field.type} of ${field.name}`);
  return field.optional ? `${base} | null` : base;
};

/** The TypeScript text of one record interface from its field table. */
export function recordInterface(name, summary, fields) {
  const lines = ['/**', ...summary.map((line) => ` * ${line}`), ' */', `export interface ${name} {`];
  for (const field of fields) {
    const shape = field.shape.length ? `${field.shape.join(' × ')}: ` : '';
    lines.push(`  /** ${shape}${field.doc} */`, `  ${field.name}: ${tsType(field)};`);
  }
  lines.push('}');
  return lines.join('\n');
}

/** The generated part of playground.d.ts, markers included. */
export function generatedDeclarations(ap) {
  return [
    begin,
    recordInterface(
      'StepRecord',
      [
        'One decoding step, every stage with the engine’s numbers. Shape letters: n source tokens,',
        'da additive attention size, dh encoder state size, Hd decoder state size, Vt target',
        'vocabulary, k top-k tokens (DecodeOptions.topK).',
      ],
      ap.stepRecordSchema(),
    ),
    end,
  ].join('\n');
}

/** The file's text with its generated part replaced. */
export function withGenerated(text, generated) {
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${declarationsPath}: the generated-part markers are missing`);
  return text.slice(0, from) + generated + text.slice(to + end.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { loadEngine } = await import('../tests/js/load-engine.mjs');
  const text = readFileSync(declarationsPath, 'utf8');
  const updated = withGenerated(text, generatedDeclarations(await loadEngine()));
  if (process.argv.includes('--check')) {
    if (updated !== text) {
      console.error('playground.d.ts differs from the record schema: run node wasm/generate-types.mjs');
      process.exit(1);
    }
  } else if (updated !== text) {
    writeFileSync(declarationsPath, updated);
    console.log('playground.d.ts: generated declarations updated');
  }
}
