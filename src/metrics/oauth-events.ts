// What OAuth mode reports for metrics (item 5 of the OAuth issue, D11): one callback passed in
// through createOAuth's deps, so src/oauth/ never imports the metrics registry. The type lives beside
// its counters (oauth.ts), so metrics/ imports nothing of oauth/ (test/folder-cycles.test.ts). No
// value in an event is a token, code, secret or client id.
export type OAuthEvent =
  | { kind: 'registration' }
  | { kind: 'metadata_fetch'; outcome: 'ok' | 'refused' | 'failed' }
  | { kind: 'authorization'; outcome: 'approved' | 'denied' }
  | { kind: 'token'; grant: 'authorization_code' | 'refresh_token'; outcome: 'ok' | 'refused' }
  | { kind: 'bearer_refused'; reason: string };

export type OAuthEvents = (event: OAuthEvent) => void;

export const noOAuthEvents: OAuthEvents = () => {};
