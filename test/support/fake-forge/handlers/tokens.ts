// GET /personal_access_tokens/self: the token the request came with, as GitLab describes it
// (lib/api/personal_access_tokens/self_information.rb, lib/api/entities/personal_access_token.rb;
// doc/api/personal_access_tokens.md "Self-inform": introduced in GitLab 15.5, so an older GitLab has
// no such route and answers 404). Any classic scope may read it (tokens.ts); a fine-grained token
// needs "Personal Access Token: Read", and its answer carries `granular` and the grant
// (`granular_scopes`, lib/api/entities/personal_access_token_granular_scope.rb). A token that is no
// personal access token (OAuth) gets 400, as self_information.rb's `before` answers it.
import { atLeast } from '../edition';
import { badRequest, json, route, type Route } from './http';
import { ApiError } from './http';

export const tokenRoutes: Route[] = [
  route('GET', '/personal_access_tokens/self', (ctx) => {
    if (!atLeast(ctx.model, 15, 5)) throw new ApiError(404, { error: '404 Not Found' });
    const info = ctx.auth?.info;
    if (!info || info.type === 'oauth') throw badRequest('400 Bad request - This endpoint requires token type to be a personal access token');
    const granular = info.type === 'fine-grained';
    return json({
      id: info.id ?? 1000 + info.userId,
      name: info.name ?? 'token',
      revoked: false,
      created_at: '2026-01-05T10:00:00.000Z',
      description: '',
      scopes: granular ? ['granular'] : (info.scopes ?? ['api']),
      user_id: info.userId,
      last_used_at: null,
      active: true,
      expires_at: info.expiresAt ?? null,
      granular,
      ...(granular ? { granular_scopes: [{ access: 'all_memberships', permissions: info.permissions ?? [], project_id: null, group_id: null }] } : {}),
    });
  }),
];
