// The score functions' names and notes (their formulas are never translated), and what a formula's box is called.
export default {
  en: {
    formulaRegion: 'formula',
    dotLabel: 'dot',
    dotNote: 'How much the query and key point the same way, times their lengths.',
    scaled_dotLabel: 'scaled dot',
    scaled_dotNote: 'The dot product divided by √dₖ, so scores do not grow with the key size.',
    generalLabel: 'general',
    generalNote: "Luong's bilinear form: a learned matrix W relates query and key.",
    additiveLabel: 'additive',
    additiveNote: "Bahdanau's small feed-forward network over query and key.",
    cosineLabel: 'cosine',
    cosineNote: 'The angle only: lengths divided out, so every score lies in [−1, 1].',
    scaled_cosineLabel: 'scaled cosine',
    scaled_cosineNote:
      'The cosine times a learned scale g (trained with the rest, starting at √dₖ): scores span [−g, g], so softmax can pick one key sharply.',
  },
  zh: {
    formulaRegion: '公式',
    dotLabel: '点积',
    dotNote: '查询与键方向的一致程度，再乘上它们的长度。',
    scaled_dotLabel: '缩放点积',
    scaled_dotNote: '点积除以 √dₖ，这样得分不会随键的维度变大。',
    generalLabel: '一般式',
    generalNote: 'Luong 的双线性形式：用一个学到的矩阵 W 联系查询与键。',
    additiveLabel: '加性',
    additiveNote: 'Bahdanau 的小型前馈网络，作用在查询和键上。',
    cosineLabel: '余弦',
    cosineNote: '只看夹角：长度被除掉，所以每个得分都在 [−1, 1] 之内。',
    scaled_cosineLabel: '缩放余弦',
    scaled_cosineNote:
      '余弦乘上一个学到的缩放因子 g（与其余参数一起训练，初值为 √dₖ）：得分范围是 [−g, g]，softmax 因此可以清晰地选中一个键。',
  },
};
