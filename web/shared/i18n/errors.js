// The engine's errors in the page's words, by their code and details (the engine's own message is
// English: it is what the English page shows, and what the Chinese page quotes when the code alone
// cannot say enough).
export default {
  en: {
    empty_input: 'The input is empty: type something, or pick an example.',
    unknown_token: 'The model does not know {tokens}.',
    unknown_more: 'The model does not know {tokens} and {more} more.',
    too_long: 'The input is too long: {length} {unit}, at most {limit}.',
    bad_checkpoint: 'The model file cannot be read ({message}).',
    bad_argument: 'A setting is not valid ({message}).',
    bad_state: 'The engine cannot do that now ({message}).',
    limit_exceeded: 'A limit is exceeded ({message}).',
    characters: 'characters',
    tokens: 'tokens',
    words: 'words',
    letters: 'letters',
    listSep: ', ',
    limitNumbers: 'Too large: {length}, at most {limit} ({message}).',
  },
  zh: {
    empty_input: '输入为空：请输入内容，或选一个示例。',
    unknown_token: '模型不认识 {tokens}。',
    unknown_more: '模型不认识 {tokens} 等 {more} 个。',
    too_long: '输入太长：{length} 个{unit}，最多 {limit} 个。',
    bad_checkpoint: '无法读取模型文件（{message}）。',
    bad_argument: '参数或输入无效（{message}）。',
    bad_state: '引擎现在无法执行此操作（{message}）。',
    limit_exceeded: '超出了上限（{message}）。',
    characters: '字符',
    tokens: '词元',
    words: '词',
    letters: '字母',
    listSep: '、',
    limitNumbers: '太大了：{length}，最多 {limit}（{message}）。',
  },
};
