// Location-aware attention's strings: its name in the score pickers and the note under its formula.
export default {
  en: {
    label: 'location',
    note: 'Additive attention that also sees where the last step looked: filters F slide over the previous weights α_{i−1}, so the alignment keeps moving forward (Chorowski et al., 2015).',
  },
  zh: {
    label: '位置感知',
    note: '加性注意力，同时看到上一步关注的位置：滤波器 F 在上一步的权重 α_{i−1} 上滑动，使对齐持续向前移动（Chorowski 等，2015）。',
  },
};
