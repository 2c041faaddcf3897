import { HighlightStyle } from '@codemirror/language';
import { tags } from '@lezer/highlight';

/** Token colours from the theme's variables, so light and dark both read well. */
export const sqlHighlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.operatorKeyword], color: 'var(--sql-keyword)', fontWeight: '600' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--sql-string)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--sql-number)' },
  { tag: [tags.standard(tags.name), tags.function(tags.name)], color: 'var(--sql-function)' },
  {
    tag: [tags.lineComment, tags.blockComment, tags.comment],
    color: 'var(--text-faint)',
    fontStyle: 'italic',
  },
  { tag: [tags.special(tags.name), tags.quote], color: 'var(--sql-quoted)' },
  { tag: [tags.typeName], color: 'var(--sql-function)' },
]);
