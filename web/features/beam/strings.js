// The Beam search view.
export default {
  en: {
    cutText:
      'the search reached its length limit before this beam produced </s>, so it is unfinished; its score covers the tokens so far, and it ranks after every beam that ended.',
    treeCaption: 'The tree (blue: beam #{n}; numbers: total log p)',
    attentionOf: 'Attention of beam #{n}',
    treeSvg: 'tree + heatmap SVG',
    beamSearch: 'Beam search',
    beamWidth: 'beam width k',
    about:
      'Beam search keeps the k most probable partial outputs at every step instead of only the best one (k = 1 is greedy decoding): each is extended by every next token, and the k best of those go on. A beam ends at </s>, and the finished beams are ranked by their log probability per token (the total divided by the length), so short and long answers compare fairly.',
    searching: 'Searching…',
    rank: 'rank',
    output: 'output',
    perToken: 'log p per token (total / tokens)',
    perTokenTitle: 'log probability per token (length-normalised)',
    perTokenLabel: 'log probability per token {p}: the total {total} over {n} tokens',
    totalOver: '= {total} / {n}',
    cut: 'cut',
    cutNote: 'cut: {text}',
    treeLabel: 'The beam-search tree: every kept hypothesis, with its total log probability',
    nodeTitle: '{token}: log p = {p}, total {total}',
    treeHint:
      "The tree: every hypothesis the search kept, one token a column. Numbers above the selected beam's nodes: its total log probability so far (not per token); after each beam's last node: its total. Blue: the selected beam.",
    heatmapTitle: 'beam #{n}: output × input',
    treePng: 'tree + heatmap PNG',
    withOneWhatIf:
      'With your what-if: {list}. The engine applies them to every beam as to greedy decoding: at step i, the masks and τ in force then and step i’s pin.',
    withWhatIfs:
      'With your {count} what-ifs: {list}. The engine applies them to every beam as to greedy decoding: at step i, the masks and τ in force then and step i’s pin.',
    withoutOneWhatIf: 'Without your what-if ({list}): the model’s own beams.',
    withoutWhatIfs: 'Without your {count} what-ifs ({list}): the model’s own beams.',
    useWhatIfs: 'apply the what-ifs',
    nodeWhatIf: ' (a what-if changed this step)',
    treeWhatIfHint: ' Dashed: a what-if changed that step.',
  },
  zh: {
    cutText:
      '搜索在这条束生成 </s> 之前就达到了长度上限，所以它没有完成；它的得分只计算了目前为止的词元，排在所有已结束的束之后。',
    treeCaption: '搜索树（蓝色：第 {n} 条束；数字：总 log p）',
    attentionOf: '第 {n} 条束的注意力',
    treeSvg: '搜索树 + 热力图 SVG',
    beamSearch: '束搜索',
    beamWidth: '束宽 k',
    about:
      '束搜索在每一步保留概率最高的 k 个部分输出，而不是只保留最好的一个（k = 1 就是贪心解码）：每个部分输出都用所有可能的下一个词元扩展，再从中保留最好的 k 个继续。一条束在 </s> 处结束，完成的束按每个词元的平均 log 概率（总和除以长度）排名，这样长短不同的答案可以公平比较。',
    searching: '搜索中…',
    rank: '排名',
    output: '输出',
    perToken: '每词元 log p（总计 / 词元数）',
    perTokenTitle: '每个词元的 log 概率（按长度归一化）',
    perTokenLabel: '每个词元的 log 概率 {p}：总计 {total}，共 {n} 个词元',
    totalOver: '= {total} / {n}',
    cut: '截断',
    cutNote: '截断：{text}',
    treeLabel: '束搜索树：每个保留的假设及其总 log 概率',
    nodeTitle: '{token}：log p = {p}，总计 {total}',
    treeHint:
      '搜索树：搜索保留的每个假设，每列一个词元。选中束的节点上方的数字：到此为止的总 log 概率（不是每词元的平均）；每条束最后一个节点后面的数字：它的总和。蓝色：选中的束。',
    heatmapTitle: '第 {n} 条束：输出 × 输入',
    treePng: '搜索树 + 热力图 PNG',
    withOneWhatIf:
      '使用你的假如：{list}。引擎给每条束的假如与贪心解码相同：第 i 步使用当时有效的屏蔽和 τ，以及第 i 步的固定。',
    withWhatIfs:
      '使用你的 {count} 个假如：{list}。引擎给每条束的假如与贪心解码相同：第 i 步使用当时有效的屏蔽和 τ，以及第 i 步的固定。',
    withoutOneWhatIf: '不使用你的假如（{list}）：模型自己的束。',
    withoutWhatIfs: '不使用你的 {count} 个假如（{list}）：模型自己的束。',
    useWhatIfs: '使用假如',
    nodeWhatIf: '（这一步被假如改变了）',
    treeWhatIfHint: '虚线：这一步被假如改变了。',
  },
};
