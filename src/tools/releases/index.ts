// The releases group (opt-in, D13): tags, releases, then release asset links.
import { releaseLinkTools } from './links';
import { releaseTools } from './releases';
import { tagTools } from './tags';

export const releaseGroupTools = [...tagTools, ...releaseTools, ...releaseLinkTools];
