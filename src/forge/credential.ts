// A caller's forge credential and the header GitLab expects for it.

export type CredentialKind = 'private' | 'bearer' | 'job';

export interface Credential {
  readonly kind: CredentialKind;
  readonly token: string;
}

const HEADER_NAME: Record<CredentialKind, string> = { private: 'PRIVATE-TOKEN', bearer: 'Authorization', job: 'JOB-TOKEN' };

export function credentialHeader(credential: Credential): [string, string] {
  const value = credential.kind === 'bearer' ? `Bearer ${credential.token}` : credential.token;
  return [HEADER_NAME[credential.kind], value];
}
