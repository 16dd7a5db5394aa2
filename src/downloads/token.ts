// Download tokens: a sealed `v1.dl.` value bound to exactly one attachment (project, secret, file
// name) and one forge, holding the caller's credential, so a link in a tool result works without
// credential headers and for nothing else.
import type { Credential, CredentialKind } from '../forge/credential';
import { MAX_SEALED_LENGTH } from '../sealing/kinds';
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

interface DownloadGrant {
  credential: Credential;
  apiUrl: string;
  projectId: string;
  ref: AttachmentRef;
}

export function mintDownloadToken(sealer: Sealer, grant: DownloadGrant): Promise<string> {
  const payload: DlPayload = {
    k: grant.credential.kind,
    t: grant.credential.token,
    u: grant.apiUrl,
    p: grant.projectId,
    s: grant.ref.secret,
    f: grant.ref.filename,
  };
  return sealer.seal('dl', payload);
}

/** The wire shape of a sealed download token: `v1.dl.` and base64url, no longer than any sealed value. */
const DOWNLOAD_TOKEN = /^v1\.dl\.[A-Za-z0-9_-]+$/;

function isDownloadTokenShape(token: string): boolean {
  return token.length <= MAX_SEALED_LENGTH && DOWNLOAD_TOKEN.test(token);
}

export async function openDownloadToken(sealer: Sealer, token: string): Promise<DownloadGrant | undefined> {
  if (!isDownloadTokenShape(token)) return undefined;
  const opened = await sealer.open<DlPayload>('dl', token);
  if (!opened.ok) return undefined;
  const { k, t, u, p, s, f } = opened.payload;
  if (![k, t, u, p, s, f].every((v) => typeof v === 'string')) return undefined;
  return { credential: { kind: k, token: t }, apiUrl: u, projectId: p, ref: { secret: s, filename: f } };
}
