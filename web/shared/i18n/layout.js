// The two-column layout of the views: the folded settings' button on a phone.
export default {
  en: {
    close: 'close',
    change: 'change',
  },
  zh: {
    close: '收起',
    change: '修改',
  },
};
