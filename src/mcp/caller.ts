// Who is calling and which forge they talk to: resolved by the HTTP layer (or fixed for stdio)
// and handed to the SDK per request as authInfo, so tool handlers get it as an explicit value.
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Caller } from '../auth/caller';

export type { Caller };

/** `publicBase`: this server's public origin, for links placed in tool results (downloads). */
export function authInfoFor(caller: Caller, requestId?: string, publicBase?: string): AuthInfo {
  return { token: caller.credential.token, clientId: 'forge-caller', scopes: [], extra: { caller, requestId, publicBase } };
}

export function callerFrom(authInfo: AuthInfo | undefined): Caller | undefined {
  return authInfo?.extra?.caller as Caller | undefined;
}

export function requestIdFrom(authInfo: AuthInfo | undefined): string | undefined {
  return authInfo?.extra?.requestId as string | undefined;
}

export function publicBaseFrom(authInfo: AuthInfo | undefined): string | undefined {
  return authInfo?.extra?.publicBase as string | undefined;
}
