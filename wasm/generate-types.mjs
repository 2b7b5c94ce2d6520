// Writes what is generated from the record tables the engine exports (decode/record_schema.hpp
// through recordSchema(kind)): the declarations in wasm/playground.d.ts and the JS unpacker of a
// step record, wasm/step_record_unpack.inc (straight-line code with the field names written out,
// which V8 runs several times faster than a loop over the table). So the TypeScript types, the
// packing and the objects the page receives come from one source. Needs the wasm build, and a
// rebuild after the unpacker changes.
//
//   node wasm/generate-types.mjs          rewrite both files where they differ
//   node wasm/generate-types.mjs --check  exit 1 when a committed file differs
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const declarationsPath = fileURLToPath(new URL('playground.d.ts', import.meta.url));
export const unpackerPath = fileURLToPath(new URL('step_record_unpack.inc', import.meta.url));
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
    ints: 'number[]',
    tensor: 'Tensor',
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
        'vocabulary, k top-k tokens (DecodeOptions.topK); the Transformer decoder’s: L layers,',
        'h heads, dk = d / h, d model size, f feed-forward size, t tokens fed so far (index + 1).',
      ],
      ap.recordSchema('decoder'),
    ),
    '',
    recordInterface(
      'SelfAttentionRecord',
      [
        'One Transformer encoder layer (Source = Target: every token attends to every token).',
        'Shape letters: n tokens, d model size, h heads, dh = d / h, f feed-forward size.',
      ],
      ap.recordSchema('self_attention'),
    ),
    end,
  ].join('\n');
}

/**
 * The EM_JS unpacker of step_record.cpp: reads the fields in the schema's order from the packed
 * int and float buffers (the layout step_record.cpp documents) and returns the record.
 */
export function unpackerSource(schema) {
  const local = (f) => `v_${f.name}`;
  const body = [];
  for (const f of schema) {
    const v = local(f);
    const nullable = (expr, size) => (f.optional ? `${size} === 0 ? null : ${expr}` : expr);
    switch (f.type) {
      case 'integer':
        body.push(`const ${v} = HEAP32[i++];`);
        break;
      case 'number':
        body.push(`const ${v} = HEAPF32[at++];`);
        break;
      case 'label':
        body.push(`const ${v} = [${f.labels.map((l) => `'${l}'`).join(', ')}][HEAP32[i++]];`);
        break;
      case 'token':
        body.push(`const ${v} = vocab[${local({ name: f.of })}];`);
        break;
      case 'vector':
        body.push(
          `const ${v}_size = HEAP32[i++];`,
          `const ${v} = ${nullable(`HEAPF32.slice(at, at + ${v}_size)`, `${v}_size`)};`,
          `at += ${v}_size;`,
        );
        break;
      case 'matrix':
        body.push(
          `const ${v}_rows = HEAP32[i++];`,
          `const ${v}_cols = HEAP32[i++];`,
          `const ${v}_size = ${v}_rows * ${v}_cols;`,
          `const ${v} = ${nullable(
            `{ data: HEAPF32.slice(at, at + ${v}_size), rows: ${v}_rows, cols: ${v}_cols }`,
            `${v}_size`,
          )};`,
          `at += ${v}_size;`,
        );
        break;
      case 'tensor':
        body.push(
          `const ${v}_rank = HEAP32[i++];`,
          `const ${v}_shape = Array.from(HEAP32.subarray(i, i + ${v}_rank));`,
          `i += ${v}_rank;`,
          `const ${v}_size = ${v}_rank === 0 ? 0 : ${v}_shape.reduce((a, b) => a * b, 1);`,
          `const ${v} = ${nullable(`{ data: HEAPF32.slice(at, at + ${v}_size), shape: ${v}_shape }`, `${v}_size`)};`,
          `at += ${v}_size;`,
        );
        break;
      case 'top':
        body.push(
          `const ${v}_k = HEAP32[i++];`,
          `const ${v} = new Array(${v}_k);`,
          `for (let j = 0; j < ${v}_k; j++) {`,
          `    const id = HEAP32[i + j];`,
          `    ${v}[j] = { id: id, token: vocab[id], prob: HEAPF32[at + j] };`,
          `}`,
          `i += ${v}_k;`,
          `at += ${v}_k;`,
        );
        break;
      default:
        throw new Error(`record schema: unknown type ${f.type} of ${f.name}`);
    }
  }
  const record = schema.map((f) => `    ${f.name}: ${local(f)},`);
  return [
    '// Generated from decode/record_schema.hpp by wasm/generate-types.mjs; do not edit.',
    '// clang-format off',
    'EM_JS(emscripten::EM_VAL, apg_step_record_js,',
    '      (emscripten::EM_VAL vocab_handle, const float *floats, const int *ints), {',
    '    const vocab = Emval.toValue(vocab_handle);',
    '    let i = ints >> 2;',
    '    let at = floats >> 2;',
    ...body.map((line) => `    ${line}`),
    '    return Emval.toHandle({',
    ...record.map((line) => `    ${line}`),
    '    });',
    '});',
    '// clang-format on',
    '',
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
  const ap = await loadEngine();
  const declarations = readFileSync(declarationsPath, 'utf8');
  const unpacker = readFileSync(unpackerPath, 'utf8');
  const files = [
    [declarationsPath, declarations, withGenerated(declarations, generatedDeclarations(ap))],
    [unpackerPath, unpacker, unpackerSource(ap.recordSchema('decoder'))],
  ];
  let stale = false;
  for (const [path, text, updated] of files) {
    if (updated === text) continue;
    stale = true;
    if (process.argv.includes('--check')) console.error(`${path} differs from the record schema`);
    else {
      writeFileSync(path, updated);
      console.log(`${path}: updated (rebuild the wasm preset if it is the unpacker)`);
    }
  }
  if (stale && process.argv.includes('--check')) {
    console.error('run node wasm/generate-types.mjs');
    process.exit(1);
  }
}
