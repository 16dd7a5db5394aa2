// Parameters the discovery tools share: GitLab's list orders, visibility, access levels, and the
// event filters (lib/api/projects.rb, groups.rb, events.rb).
import { Type } from '@sinclair/typebox';
import { isoDate, shortName, oneOf } from '../params';

export const visibility = oneOf(['private', 'internal', 'public'], 'Only this one');
export const sort = oneOf(['asc', 'desc']);
/** GitLab's roles by number: 10 guest, 15 planner, 20 reporter, 30 developer, 40 maintainer, 50 owner. */
export const minAccessLevel = oneOf([10, 15, 20, 30, 40, 50], '10 guest, 20 reporter, 30 developer, 40 maintainer, 50 owner.');
export const projectOrder = oneOf(['last_activity_at', 'created_at', 'updated_at', 'name', 'path', 'id', 'star_count'], 'Default last_activity_at.');
export const groupOrder = oneOf(['name', 'path', 'id']);
export const topic = Type.Optional(shortName({ description: 'Only projects with this topic.' }));
export const flag = (description: string) => Type.Optional(Type.Boolean({ description }));

/** Event.actions and Event::TARGET_TYPES (app/models/event.rb). */
export const eventFilters = {
  action: oneOf(
    ['created', 'updated', 'closed', 'reopened', 'pushed', 'commented', 'merged', 'joined', 'left', 'destroyed', 'expired', 'approved'],
    'What was done',
  ),
  target_type: oneOf(['issue', 'milestone', 'merge_request', 'note', 'project', 'snippet', 'user', 'wiki', 'design'], 'To what'),
  before: isoDate('Events before this day.'),
  after: isoDate('Events after this day.'),
  sort,
};
