// The guided tour's texts (web/features/tour/stops.js lists the stops; {name} is filled from the engine's
// answers by web/features/tour/facts.js).
export default {
  en: {
    start: 'Guided tour',
    welcomeTitle: 'New here?',
    welcomeText:
      'The guided tour takes the ideas in order, in {n} stops on “tom chase jerry”: from a decoder with one fixed vector to the three stages of attention, and on to the Transformer. Every number it cites is the live model’s.',
    welcomeStart: 'Start the guided tour',
    welcomeDismiss: 'Not now',
    resume: 'Resume the tour at stop {n}',
    region: 'Guided tour',
    counter: 'Stop {n} of {total}',
    back: 'Back',
    next: 'Next',
    finish: 'Finish',
    leave: 'Leave the tour',
    link: 'Link to this stop',
    waiting: 'The engine is computing the numbers of this stop…',
    moved: 'You have changed what this stop set up, so its numbers are not cited here.',
    again: 'Set up this stop again',
    elsewhere:
      'You have stepped on: the numbers above are this step’s. The stop is about step {step}, where the decoder writes {token}.',
    toStep: 'Back to step {step}',
    badStop: 'There is no tour stop “{asked}” (the stops are 1 to {total}); the tour stays closed.',
    listSeparator: ', ',

    'fixed.title': 'The encoder–decoder and its fixed vector',
    'fixed.lead':
      'This model has no attention: the encoder squeezes “tom chase jerry” into one fixed vector c, and the decoder reads that same c at every step. Step with → (or step ▶) and watch the vector in the marked card: it never changes.',
    'fixed.fact': 'Its output: {output}.',

    'length.title': 'Where the fixed vector fails: long inputs',
    'length.lead':
      'One vector has to hold the whole input, however long it is. The chart gives the held-out exact match by source length on the reverse task: compare the fixed-vector baseline with the attention models as the inputs grow longer.',
    'length.fact':
      'Here the baseline gets {first} of the inputs of {firstRange} letters right, but only {last} of those of {lastRange}; additive attention gets {additive} of the longest.',

    'stages.title': 'The three stages on the live model',
    'stages.lead':
      "With additive (Bahdanau) attention the decoder looks back at every encoder state at each step: stage 1 scores each source word against the decoder's query, stage 2's softmax turns the scores into weights that add up to 1, and stage 3 mixes the encoder states by those weights into the context vector. The formula view spells the three out with this step's numbers.",
    'stages.fact':
      'At step {step} the decoder writes {token}, and the largest weight, {weight}, goes to “{word}”.',

    'compare.title': 'Score functions side by side',
    'compare.lead':
      "The same sentence through six models trained alike but for the score function (dot, scaled dot, general, additive, cosine, scaled cosine), each alignment a heatmap on one colour scale. Look at where each row's brightest cell lies, and at each model's held-out accuracy.",
    'compare.fact': '{same} of the {total} models give the same output as additive attention: {output}.',

    'styles.title': 'Bahdanau vs Luong',
    'styles.lead':
      'Bahdanau (stop 3) scores with the previous decoder state sᵢ₋₁ and feeds the context into the GRU that makes sᵢ. Luong, this model, steps the GRU first, scores with the new state sᵢ, and only then combines the context with it into the attentional vector h̃ = tanh(W_c[c; sᵢ]) that predicts the token (in the marked card).',
    'styles.fact':
      'At step {step} it writes {token}, giving “{word}” the largest weight, {weight}; its whole output is {output}.',

    'sandbox.title': 'Query, Key, Value: soft addressing',
    'sandbox.lead':
      'Attention is a soft lookup: the query is compared with every key, and instead of fetching the one value whose key matches, it fetches a mix of all the values, weighted by how well each key matches. Here the keys and values of Tom, chase and Jerry are written by hand: edit any number and the engine computes again.',
    'sandbox.fact':
      "With the dot product the weights are {weights}: the context takes the most from {top}'s value.",

    'self.title': 'Self-attention: Source = Target',
    'self.lead':
      'In the Transformer encoder the queries, keys and values all come from the same sentence: every word of “tom chase jerry” attends to every word of it, in every layer and head. Click another token or head to see its query against every key.',
    'self.fact':
      'In layer {layer}, head {head}, the query of “{token}” gives the largest weight, {weight}, to “{word}”.',

    'bridge.title': 'From Bahdanau to the Transformer',
    'bridge.lead':
      'The Transformer keeps the three stages and changes what goes into them. Bahdanau’s query is the previous decoder state sᵢ₋₁; a head’s is xᵢW_q, a projection of what the decoder has written. Bahdanau’s keys and values are the encoder states hⱼ themselves; a head’s are hⱼW_k and hⱼW_v. The small network vᵀ tanh(W s + U h) becomes the dot product q·k/√d_h, and one alignment becomes one per layer and head. The marked card sets each head of the Transformer decoder beside Bahdanau’s alignment, with how far apart they are.',
    'bridge.fact':
      'On this sentence the head nearest Bahdanau’s alignment is layer {layer} · head {head}, at a distance of {d}; the farthest is layer {farLayer} · head {farHead}, at {far}.',

    'beam.title': 'Beam search',
    'beam.lead':
      'Greedy decoding keeps only the most probable token at each step. Beam search keeps the k best partial translations, extends each of them, and ranks the finished ones by their log probability per token; the tree shows every hypothesis it kept.',
    'beam.fact': 'With k = {k} the best beam is {best} (score {score}); greedy decoding gave {greedy}.',
  },
  zh: {
    start: '导览',
    welcomeTitle: '第一次来？',
    welcomeText:
      '导览按顺序讲这些概念，共 {n} 站，都以 “tom chase jerry” 为例：从只有一个固定向量的解码器，到注意力的三个阶段，再到 Transformer。它引用的每个数字都来自正在运行的模型。',
    welcomeStart: '开始导览',
    welcomeDismiss: '以后再说',
    resume: '从第 {n} 站继续导览',
    region: '导览',
    counter: '第 {n} 站，共 {total} 站',
    back: '上一站',
    next: '下一站',
    finish: '完成',
    leave: '离开导览',
    link: '本站链接',
    waiting: '引擎正在计算本站的数字……',
    moved: '你改动了本站的设置，所以这里不再引用它的数字。',
    again: '重新设置本站',
    elsewhere:
      '你已经走到了别的步：上面的数字是这一步的。本站讲的是第 {step} 步，解码器在那一步写出 {token}。',
    toStep: '回到第 {step} 步',
    badStop: '导览没有第 “{asked}” 站（共 1 到 {total} 站）；导览未打开。',
    listSeparator: '，',

    'fixed.title': '编码器–解码器与固定向量',
    'fixed.lead':
      '这个模型没有注意力：编码器把 “tom chase jerry” 压缩成一个固定向量 c，解码器每一步读的都是同一个 c。用 →（或“前进 ▶”）逐步前进，看标出的卡片里的向量：它始终不变。',
    'fixed.fact': '它的输出：{output}。',

    'length.title': '固定向量的短板：长输入',
    'length.lead':
      '无论输入多长，都只能装进一个向量。图表按源序列长度给出 reverse 任务在留出集上的完全匹配率：随着输入变长，比较固定向量基线和各个注意力模型。',
    'length.fact':
      '在这里，基线对 {firstRange} 个字母的输入答对 {first}，对 {lastRange} 个字母的输入却只答对 {last}；加性注意力在最长的这一组答对 {additive}。',

    'stages.title': '真实模型上的三个阶段',
    'stages.lead':
      '使用加性（Bahdanau）注意力时，解码器每一步都回看所有编码器状态：第一阶段用解码器的查询给每个源词打分，第二阶段用 softmax 把得分变成加起来等于 1 的权重，第三阶段按这些权重把编码器状态加权求和，得到上下文向量。公式视图把这三个阶段代入了这一步的数字。',
    'stages.fact': '第 {step} 步解码器写出 {token}，最大的权重 {weight} 落在 “{word}” 上。',

    'compare.title': '并排比较打分函数',
    'compare.lead':
      '同一句话经过六个除打分函数外训练方式相同的模型（点积、缩放点积、一般式、加性、余弦、缩放余弦），每个模型的对齐都画成同一色标的热力图。看看每一行最亮的格子在哪里，再看看每个模型在留出集上的准确率。',
    'compare.fact': '{total} 个模型中有 {same} 个的输出与加性注意力相同：{output}。',

    'styles.title': 'Bahdanau 与 Luong',
    'styles.lead':
      'Bahdanau（第 3 站）用上一步的解码器状态 sᵢ₋₁ 作查询来打分，并把上下文向量送进生成 sᵢ 的 GRU。Luong（这个模型）先让 GRU 走一步，用新状态 sᵢ 打分，然后才把上下文向量与它合成注意力向量 h̃ = tanh(W_c[c; sᵢ])，用它预测下一个词（见标出的卡片）。',
    'styles.fact': '第 {step} 步它写出 {token}，最大的权重 {weight} 给了 “{word}”；完整的输出是 {output}。',

    'sandbox.title': '查询、键、值：软寻址',
    'sandbox.lead':
      '注意力是一种软查找：查询与每个键比较，它不是只取出键相匹配的那一个值，而是按每个键的匹配程度，把所有的值加权混合后取出。这里 Tom、chase、Jerry 的键和值都是手写的：改动任何数字，引擎都会重新计算。',
    'sandbox.fact': '用点积时权重为 {weights}：上下文向量从 {top} 的值取得最多。',

    'self.title': '自注意力：源 = 目标',
    'self.lead':
      '在 Transformer 编码器里，查询、键和值都来自同一句话：“tom chase jerry” 的每个词都对这句话的每个词做注意力，每一层、每个头都是如此。点击别的词或头，可以看它的查询与每个键的比较。',
    'self.fact': '在第 {layer} 层第 {head} 个头中，“{token}” 的查询把最大的权重 {weight} 给了 “{word}”。',

    'bridge.title': '从 Bahdanau 到 Transformer',
    'bridge.lead':
      'Transformer 保留了三个阶段，改变的是送进去的东西。Bahdanau 的查询是上一步的解码器状态 sᵢ₋₁；一个头的查询是 xᵢW_q，即解码器已写出内容的投影。Bahdanau 的键和值就是编码器状态 hⱼ 本身；一个头的键和值是 hⱼW_k 和 hⱼW_v。小网络 vᵀ tanh(W s + U h) 变成了点积 q·k/√d_h，一份对齐变成了每层每个头各一份。标出的卡片把 Transformer 解码器的每个头放在 Bahdanau 的对齐旁边，并给出二者相距多远。',
    'bridge.fact':
      '在这句话上，与 Bahdanau 的对齐最接近的是第 {layer} 层 · 第 {head} 头，距离 {d}；最远的是第 {farLayer} 层 · 第 {farHead} 头，距离 {far}。',

    'beam.title': '束搜索',
    'beam.lead':
      '贪心解码每一步只保留概率最高的词。束搜索保留 k 个最好的部分译文，逐个扩展，再按每个词的平均对数概率给完成的译文排序；树中画出了它保留过的每一个假设。',
    'beam.fact': 'k = {k} 时最好的一束是 {best}（得分 {score}）；贪心解码得到的是 {greedy}。',
  },
};
