// A kept model in words (web/shared/models/describe.js): written from its metadata in the language
// shown, its task, score function and style by their names, never the engine's ids or the English
// label kept with it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { savedFacts, savedName } from '../../../../web/shared/models/describe.js';
import { readLangFrom } from '../../../../web/shared/i18n/translate.js';

const kept = {
  id: 'dates-scaled_dot-luong-step150-x',
  label: 'dates · scaled dot · luong · step 150',
  task: 'dates',
  score: 'scaled_dot',
  style: 'luong',
  encoder: 'gru',
  step: 150,
  heldoutExactMatch: 0.005,
  bytes: 1000,
  created: 0,
  origin: /** @type {const} */ ('trained'),
};

test('in English and in 中文, with no engine id and no English left in Chinese', () => {
  let lang = /** @type {'en' | 'zh'} */ ('en');
  readLangFrom(() => lang);
  try {
    assert.equal(savedName(kept), 'Dates → ISO 8601 · scaled dot · Luong · step 150');
    assert.equal(savedFacts(kept), 'Dates → ISO 8601 · scaled dot · Luong · held-out exact match 0.5 %');
    lang = 'zh';
    assert.equal(savedName(kept), '日期 → ISO 8601 · 缩放点积 · Luong · 第 150 步');
    assert.equal(savedFacts(kept), '日期 → ISO 8601 · 缩放点积 · Luong · 留出集完全匹配 0.5 %');
    assert.equal(
      savedName({ ...kept, task: 'pairs', diverged: true }),
      '你自己的句对 · 缩放点积 · Luong · 第 150 步（发散前最后一个正常的模型）',
    );
    // a file keeps its own name
    assert.equal(savedName({ ...kept, origin: 'file', label: 'mine.safetensors' }), 'mine.safetensors');
  } finally {
    readLangFrom(() => 'en');
  }
});
