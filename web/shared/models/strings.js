// The models trained in this browser or loaded from a file: the choice beside the shipped ones,
// keeping them, loading a file.
export default {
  en: {
    yourTrained: 'Your trained models',
    shipped: '— a shipped model (chosen above) —',
    notKeptOpt: '{name} (not kept)',
    cannotKeep: 'Trained models cannot be kept in this browser: {message}',
    notKeptError: 'The model was not kept in this browser: {message}',
    tooBig: '{file} has {size} bytes; the engine reads checkpoints of at most {limit} bytes.',
    loaded: 'Loaded {file} ({task}, {score}, {style}).',
    notAModel: '{file} is not a model the engine can load: {message}',
  },
  zh: {
    yourTrained: '你训练的模型',
    shipped: '— 自带的模型（在上方选择）—',
    notKeptOpt: '{name}（未保存）',
    cannotKeep: '这个浏览器无法保存训练好的模型：{message}',
    notKeptError: '模型没有保存到这个浏览器里：{message}',
    tooBig: '{file} 有 {size} 字节；引擎读取的检查点最多 {limit} 字节。',
    loaded: '已加载 {file}（{task}，{score}，{style}）。',
    notAModel: '{file} 不是引擎能加载的模型：{message}',
  },
};
