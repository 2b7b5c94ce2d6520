// The Compare view.
export default {
  en: {
    yourTrained: 'Your trained model',
    sixScores: 'Every score function ({style})',
    styles: 'Bahdanau vs Luong ({score})',
    encoders: 'BiGRU vs Transformer encoder (Additive · Bahdanau)',
    pictureTitle: 'Compare on “{input}” (chosen: {model})',
    heatmapsSvg: 'heatmaps SVG',
    heatmapsPng: 'heatmaps PNG',
    leadModels: '“{input}” through every {style} model of this task',
    leadStyles: ', through {score} attention in both styles',
    leadEncoders: ', and through a BiGRU and a Transformer encoder',
    leadEnd:
      ". One colour scale (weight 0 → 1) for all; the red box marks where a model's weights differ most from the chosen model ({model}).",
    leadBaselineEnd:
      '. The chosen model is the fixed-vector baseline ({model}): it has no attention, so no heatmap and no weights to compare with. One colour scale (weight 0 → 1) for all.',
    ranked: 'Ranked by held-out exact match',
    heldOutTitle: 'Held-out exact match',
    heldOutText:
      ': the share of test examples, generated like the training data but never trained on, whose whole output the model gets exactly right (one wrong token and the example counts as wrong).',
    best: 'best',
    cosineWeak:
      "Why cosine is weak: its scores lie in [−1, 1], so softmax can give one token at most e² ≈ 7.4 times the weight of another, however well it matches; the attention stays blurred. With n source tokens no weight can pass e² / (e² + n − 1): the cosine model's card below gives it for this input.",
    scaledCosineA: 'Scaled cosine multiplies the cosine by a learned g, which lifts that cap to e',
    scaledCosineB: '+ n − 1): its card gives its g and the bound.',
    openSelf: 'Open its self-attention',
    transformerEncoder: 'Transformer encoder',
    chooseModel: 'Choose this model',
    heldOut: 'held-out {p}',
    notShipped: 'Not shipped (no checkpoint {name}).',
    loading: 'loading…',
    heatmapTitle: '{model}: output × input',
    largestDiff: 'Largest difference at step {step}, on “{token}”: {b} here vs {a} (|Δ| = {d}).',
    chosenModel: 'The chosen model: the others are measured against it.',
    chosenBaseline:
      'The chosen model. Without weights it has no differences to mark: choose a score function to compare the others against it.',
  },
  zh: {
    yourTrained: '你训练的模型',
    sixScores: '全部打分函数（{style}）',
    styles: 'Bahdanau 对比 Luong（{score}）',
    encoders: 'BiGRU 对比 Transformer 编码器（加性 · Bahdanau）',
    pictureTitle: '比较“{input}”（选中：{model}）',
    heatmapsSvg: '热力图 SVG',
    heatmapsPng: '热力图 PNG',
    leadModels: '“{input}”分别经过本任务所有 {style} 风格的模型',
    leadStyles: '、两种风格的{score}注意力',
    leadEncoders: '，以及 BiGRU 和 Transformer 编码器',
    leadEnd:
      '。所有热力图用同一个色标（权重 0 → 1）；红框标出某个模型的权重与选中模型（{model}）差别最大的地方。',
    leadBaselineEnd:
      '。选中的是固定向量基线（{model}）：它没有注意力，所以没有热力图，也没有可比较的权重。所有热力图用同一个色标（权重 0 → 1）。',
    ranked: '按留出集完全匹配率排名',
    heldOutTitle: '留出集完全匹配率',
    heldOutText:
      '：测试样例（与训练数据同样生成，但从未用于训练）中，模型整个输出完全正确的比例（错一个词元就算错）。',
    best: '最佳',
    cosineWeak:
      '余弦为什么弱：它的得分落在 [−1, 1] 之内，所以无论匹配得多好，softmax 给一个词元的权重最多只是另一个的 e² ≈ 7.4 倍；注意力始终是模糊的。有 n 个源词元时，没有权重能超过 e² / (e² + n − 1)：下方余弦模型的卡片给出了这个输入下的值。',
    scaledCosineA: '缩放余弦把余弦乘上一个学到的 g，把这个上限抬高到 e',
    scaledCosineB: '+ n − 1)：它的卡片给出了 g 和这个上界。',
    openSelf: '打开它的自注意力',
    transformerEncoder: 'Transformer 编码器',
    chooseModel: '选择这个模型',
    heldOut: '留出集 {p}',
    notShipped: '未随页面提供（没有检查点 {name}）。',
    loading: '加载中…',
    heatmapTitle: '{model}：输出 × 输入',
    largestDiff: '差别最大处在第 {step} 步、词元“{token}”上：这里是 {b}，选中模型是 {a}（|Δ| = {d}）。',
    chosenModel: '选中的模型：其他模型都与它比较。',
    chosenBaseline: '选中的模型。它没有权重，也就没有差别可标：选一个打分函数，就能让其他模型与它比较。',
  },
};
