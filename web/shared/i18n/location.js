// Location-aware attention's strings: its name in the score pickers and the note under its formula.
export default {
  en: {
    label: 'location',
    note: 'Additive attention that also sees where the last step looked: filters F slide over the previous weights α_{i−1}, so the alignment keeps moving forward (Chorowski et al., 2015).',
    previousTitle: 'Where the last step looked',
    previousHint:
      'Location-aware attention reads these weights too: its filters turn them into features f_j, so the score of a token depends on where the previous step looked.',
    featuresLabel: 'The {k} location features f_j over the source tokens',
    featuresHint:
      'f_j: {k} features (rows) at each of the {n} positions, from α_{i−1}; point at or tap one to read it.',
  },
  zh: {
    label: '位置感知',
    note: '加性注意力，同时看到上一步关注的位置：滤波器 F 在上一步的权重 α_{i−1} 上滑动，使对齐持续向前移动（Chorowski 等，2015）。',
    previousTitle: '上一步关注的位置',
    previousHint:
      '位置感知注意力也读取这些权重：它的滤波器把它们变成特征 f_j，所以一个词元的得分取决于上一步关注的位置。',
    featuresLabel: '各源词元上的 {k} 个位置特征 f_j',
    featuresHint:
      'f_j：{n} 个位置上各有 {k} 个特征（每行一个），由 α_{i−1} 得出；指向或轻点一个格子可读出数值。',
  },
};
