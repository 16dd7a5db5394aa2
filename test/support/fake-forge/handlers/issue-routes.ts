// Every route of the issue tools' endpoints, registered in handlers.ts with one entry.
import type { Route } from './http';
import { awardRoutes } from './awards';
import { issueRoutes } from './issues';
import { linkRoutes } from './links';
import { noteRoutes } from './notes';
import { todoRoutes } from './todos';

export const issueActivityRoutes: Route[] = [...issueRoutes, ...noteRoutes, ...linkRoutes, ...awardRoutes, ...todoRoutes];
