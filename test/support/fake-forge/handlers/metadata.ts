// GET /metadata and GET /version: what this instance is (lib/api/metadata.rb; both need a signed-in
// caller). Tests may make either fail with failNext to play a token that cannot read them.
import { metadataOf } from '../edition';
import { json, route, type Route } from './http';

export const metadataRoutes: Route[] = [
  route('GET', '/metadata', (ctx) => json(metadataOf(ctx.model))),
  route('GET', '/version', (ctx) => json(metadataOf(ctx.model))),
];
