// Download tokens: a sealed `v1.dl.` value bound to exactly one attachment (project, secret, file
// name) and one forge, holding the caller's credential, so a link in a tool result works without
// credential headers and for nothing else.
import type { Credential, CredentialKind } from '../forge/credential';
import type { Sealer } from '../sealing/sealer';
import type { AttachmentRef } from './attachments';

interface DlPayload {
  k: CredentialKind;
  t: string;
  u: string;
  p: string;
  s: string;
  f: string;
}

export interface DownloadGrant {
  credential: Credential;
  apiUrl: string;
  projectId: string;
  ref: AttachmentRef;
}

export function mintDownloadToken(sealer: Sealer, grant: DownloadGrant): Promise<string> {
  const payload: DlPayload = { k: grant.credential.kind, t: grant.credential.token, u: grant.apiUrl, p: grant.projectId, s: grant.ref.secret, f: grant.ref.filename };
  return sealer.seal('dl', payload as unknown as Record<string, unknown>);
}

export async function openDownloadToken(sealer: Sealer, token: string): Promise<DownloadGrant | undefined> {
  const opened = await sealer.open<DlPayload>('dl', token);
  if (!opened.ok) return undefined;
  const { k, t, u, p, s, f } = opened.payload;
  if (![k, t, u, p, s, f].every((v) => typeof v === 'string')) return undefined;
  return { credential: { kind: k, token: t }, apiUrl: u, projectId: p, ref: { secret: s, filename: f } };
}
