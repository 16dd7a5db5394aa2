// Forge text a result printer must escape, and one that is cut to MAX_RESULT_BYTES: planted in an
// issue, each must come out of the plain call path as the SDK prints it (fast-tool-call.ts).
export const HOSTILE_ISSUE_FIELDS: [string, { title: string; description: string }][] = [
  ['line and paragraph separators, quotes, a backslash, </script>', { title: 'a\u2028b\u2029c "q" \\ </script>', description: '<!-- hidden -->\u200bshown' }],
  ['a lone surrogate and control characters', { title: 'x\ud800y\udc00z\u0000\u001f', description: '\t\r\n' }],
  ['a 300 KB description (cut to MAX_RESULT_BYTES)', { title: 'long', description: `${'é'.repeat(150_000)}\\` }],
];
