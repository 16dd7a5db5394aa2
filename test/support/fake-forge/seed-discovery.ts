// Seed of the discovery endpoints (model-discovery.ts): project facts, a bot and a blocked user,
// personal namespaces, project and group labels (one with a slash, one with an emoji), and the
// recent activity of maria and dev. DISCOVERY_SEED names what tests rely on.
import type { ForgeModel } from './model';
import type { ForgeEvent, Label } from './model-discovery';

export const DISCOVERY_SEED = {
  /** A project bot (GitLab's project access token user) and a blocked user; neither is a member. */
  botUser: { id: 4, username: 'project_42_bot_1a2b', name: 'api deploy bot' },
  blockedUser: { id: 5, username: 'leaver', name: 'Lee Leaver' },
  /** Personal namespaces: maria 11 (maria/sandbox), dev 12 (where the fork lives), gus 13. */
  namespaces: { maria: 11, dev: 12, gus: 13 },
  /** Project 42's labels by name → id; acme (6) has priority::high, acme/platform (7) team/platform and 🚀 launch. */
  labels: { bug: 301, auth: 302, feature: 303, docs: 304, priorityHigh: 311, teamPlatform: 321, launch: 322 },
  /** Events by id, in the order they happened (GitLab's ids grow with time): dev opening #2, maria's comment on #1,
   * maria closing #4, dev's branch on 44, maria's push to 42's main, maria's push to 43. */
  events: { opened: 9001, commented: 9002, closed: 9003, forkBranch: 9004, push: 9005, secretPush: 9006 },
} as const;

export function seedDiscovery(m: ForgeModel, headSha: string, secretHead: string, forkHead: string): void {
  const d = m.discovery;
  const { botUser, blockedUser } = DISCOVERY_SEED;
  m.users.set(botUser.id, { ...botUser, email: `${botUser.username}@noreply.forge.test` });
  m.users.set(blockedUser.id, { ...blockedUser, email: 'lee@forge.test' });
  const person = (namespaceId: number, state: 'active' | 'blocked' = 'active', bot = false, job_title = '') => ({
    state,
    bot,
    namespaceId,
    created_at: '2023-06-01T09:00:00.000Z',
    bio: '',
    job_title,
  });
  d.users.set(1, person(11, 'active', false, 'Maintainer of the platform'));
  d.users.set(2, person(12));
  d.users.set(3, person(13));
  d.users.set(botUser.id, person(14, 'active', true));
  d.users.set(blockedUser.id, person(15, 'blocked'));

  const facts = (description: string | null, topics: string[], last: string, stars = 0) => ({
    description,
    topics,
    archived: false,
    star_count: stars,
    created_at: '2023-12-30T10:00:00.000Z',
    last_activity_at: last,
    license: null,
  });
  d.projects.set(42, {
    ...facts('Platform API service: HTTP entry point, config and caching.', ['api', 'platform'], '2024-01-31T12:00:00.000Z', 7),
    license: {
      key: 'mit',
      name: 'MIT License',
      nickname: null,
      html_url: 'http://choosealicense.com/licenses/mit/',
      source_url: 'https://opensource.org/licenses/MIT',
    },
  });
  d.projects.set(43, facts('Signing keys and the vault client.', ['security'], '2024-02-03T12:00:00.000Z'));
  // dev's fork lives in dev's personal namespace.
  const fork = m.projects.get(44);
  if (fork) fork.namespace.kind = 'user';
  d.projects.set(60, facts(null, [], '2024-01-20T10:00:00.000Z'));
  d.projects.set(44, facts('Platform API service: HTTP entry point, config and caching.', [], '2024-01-29T16:00:00.000Z'));

  const label = (id: number, name: string, color: string, description: string | null, priority: number | null = null): Label => ({
    id,
    name,
    color,
    description,
    priority,
  });
  const L = DISCOVERY_SEED.labels;
  d.labelsOf('project', 42).push(
    label(L.bug, 'bug', '#d9534f', 'Something is broken', 1),
    label(L.auth, 'auth', '#5843ad', 'Sign-in and tokens'),
    label(L.feature, 'feature', '#428bca', null, 2),
    label(L.docs, 'docs', '#8fbc8f', 'Documentation'),
  );
  d.labelsOf('group', 6).push(label(L.priorityHigh, 'priority::high', '#ff0000', 'Scoped priority label'));
  d.labelsOf('group', 7).push(label(L.teamPlatform, 'team/platform', '#6699cc', 'Owned by the platform team'), label(L.launch, '🚀 launch', '#ffaa00', null));
  d.nextLabelId = 400;

  const E = DISCOVERY_SEED.events;
  const event = (e: Omit<ForgeEvent, 'target_id' | 'target_iid' | 'target_title' | 'target_type'> & Partial<ForgeEvent>): ForgeEvent => ({
    target_type: null,
    target_id: null,
    target_iid: null,
    target_title: null,
    ...e,
  });
  const push = (id: number, project: number, author: number, at: string, ref: string, to: string, title: string, action: 'pushed' | 'created' = 'pushed') =>
    event({
      id,
      project_id: project,
      author_id: author,
      action_name: action === 'created' ? 'pushed new' : 'pushed to',
      action: 'pushed',
      created_at: at,
      push_data: { commit_count: 1, action, ref_type: 'branch', commit_from: null, commit_to: to, ref, commit_title: title, ref_count: null },
    });
  d.events.push(
    event({
      id: E.opened,
      project_id: 42,
      author_id: 2,
      action_name: 'opened',
      action: 'created',
      target_type: 'Issue',
      target_id: 502,
      target_iid: 2,
      target_title: 'Add rate limiting',
      created_at: '2024-01-04T10:00:00.000Z',
    }),
    event({
      id: E.commented,
      project_id: 42,
      author_id: 1,
      action_name: 'commented on',
      action: 'commented',
      target_type: 'Note',
      target_id: 7001,
      target_iid: 7001,
      target_title: 'Login fails with SSO',
      created_at: '2024-01-05T09:30:00.000Z',
      note: { id: 7001, body: 'I can reproduce this with the staging IdP.', noteable_type: 'Issue', noteable_id: 501, noteable_iid: 1 },
    }),
    event({
      id: E.closed,
      project_id: 42,
      author_id: 1,
      action_name: 'closed',
      action: 'closed',
      target_type: 'Issue',
      target_id: 504,
      target_iid: 4,
      target_title: 'Old crash on start',
      created_at: '2024-01-10T12:00:00.000Z',
    }),
    push(E.forkBranch, 44, 2, '2024-01-29T16:00:00.000Z', 'readme-guide', forkHead, 'Point the README at the guide', 'created'),
    push(E.push, 42, 1, '2024-01-31T09:00:00.000Z', 'main', headSha, 'Bump version to 1.4.0'),
    push(E.secretPush, 43, 1, '2024-02-03T12:00:00.000Z', 'main', secretHead, 'Rotate signing keys'),
  );
}
