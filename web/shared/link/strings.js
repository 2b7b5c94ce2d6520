// What a link asked for that the page cannot show: the notes of the link's parsers (link.svelte.js, each feature's fields) and of the checks after loading.
export default {
  en: {
    decode: 'Decode',
    compare: 'Compare',
    beam: 'Beam search',
    self: 'Self-attention',
    sandbox: 'Sandbox',
    train: 'Train',
    caption: 'Caption',
    length: 'Why attention',
    listen: 'Listen',
    noView: 'There is no view {view}; showing {shown}.',
    noTask: 'There is no task {task} (the tasks are {tasks}); showing {shown}.',
    noModel: 'There is no model {model} (a model is score-style, e.g. additive-bahdanau); showing {shown}.',
    inputCut:
      'The input was cut to its first {n} characters: the most the engine decodes, as in the input box.',
    badStep: 'The step {step} is not a step number (1 is step=0); showing step 1.',
    badForcesKept: 'Some forced tokens in the link are not step:token pairs ({force}); the others are kept.',
    badForcesGreedy: 'Some forced tokens in the link are not step:token pairs ({force}); decoding greedily.',
    badBeam: 'The beam width {k} is not 1 to 8; showing {n} beams.',
    notOneOf: "The link's {field} is not one of {options}; using {used}.",
    notNumber: "The link's {field} is not a usable number; using {used}.",
    notInRange: '{field} is not a number from {min} to {max}; keeping {used}.',
    recipeValue: "the recipe's value",
    badSelf:
      'The self-attention choice {sa} is not layer.head.token (whole numbers from 0); showing {shown}.',
    selfPast:
      'The link’s sa={sa} asks for more than this model has ({layers} layers, {heads} heads, {n} tokens, each from 0); showing {shown}.',
    unknownScores: 'The link names score functions the trainer does not have ({unknown}); using {used}.',
    forceKept:
      'The link forces token {id} at step {step}, but {model} has only {size} output tokens (0–{last}); the other forced tokens are kept.',
    forceGreedy:
      'The link forces token {id} at step {step}, but {model} has only {size} output tokens (0–{last}); decoding greedily.',
    stepPast:
      'The link’s step={asked} is step {step} (steps count from 0), but this decode has {n} steps; showing the last.',
    noTrained:
      'The link names the trained model {model}, which this browser does not keep; showing a shipped model.',
    notShipped: 'There is no model {model} (dashed options are not shipped); showing {shown} instead.',
    noCheckpoint: 'There is no checkpoint {name}.safetensors in this build.',
    modelFailed: 'The model {name} did not load: {message}',
  },
  zh: {
    decode: '解码',
    compare: '比较',
    beam: '束搜索',
    self: '自注意力',
    sandbox: '沙盒',
    train: '训练',
    caption: '图像描述',
    length: '为什么需要注意力',
    listen: '听语音',
    noView: '没有 {view} 这个视图；显示的是“{shown}”。',
    noTask: '没有 {task} 这个任务（任务有 {tasks}）；显示的是“{shown}”。',
    noModel: '没有 {model} 这个模型（模型名是“打分函数-风格”，例如 additive-bahdanau）；显示的是 {shown}。',
    inputCut: '输入被截断为前 {n} 个字符：这是引擎能解码的最大长度，与输入框相同。',
    badStep: '步骤 {step} 不是一个步数（第 1 步是 step=0）；显示第 1 步。',
    badForcesKept: '链接里有些强制词元不是“步:词元”格式（{force}）；其余的保留。',
    badForcesGreedy: '链接里有些强制词元不是“步:词元”格式（{force}）；改为贪心解码。',
    badBeam: '束宽 {k} 不在 1 到 8 之内；显示 {n} 条束。',
    notOneOf: '链接中的 {field} 不是 {options} 之一；使用 {used}。',
    notNumber: '链接中的 {field} 不是可用的数字；使用{used}。',
    notInRange: '{field} 不是 {min} 到 {max} 之间的数；保留{used}。',
    recipeValue: '配方的值',
    badSelf: '自注意力的选择 {sa} 不是“层.头.词元”（从 0 开始的整数）；显示 {shown}。',
    selfPast:
      '链接中的 sa={sa} 超出了这个模型的范围（{layers} 层、{heads} 个头、{n} 个词元，都从 0 数起）；显示 {shown}。',
    unknownScores: '链接中有训练器没有的打分函数（{unknown}）；使用 {used}。',
    forceKept:
      '链接在第 {step} 步强制词元 {id}，但 {model} 只有 {size} 个输出词元（0–{last}）；其余强制的词元保留。',
    forceGreedy:
      '链接在第 {step} 步强制词元 {id}，但 {model} 只有 {size} 个输出词元（0–{last}）；改为贪心解码。',
    stepPast: '链接中的 step={asked} 是第 {step} 步（步数从 0 数起），但这次解码只有 {n} 步；显示最后一步。',
    noTrained: '链接指向训练出的模型 {model}，但这个浏览器没有保存它；显示的是自带的模型。',
    notShipped: '没有 {model} 这个模型（虚线选项没有随页面提供）；改为显示 {shown}。',
    noCheckpoint: '这个版本里没有检查点 {name}.safetensors。',
    modelFailed: '模型 {name} 没有加载成功：{message}',
  },
};
