// push_files: one commit that creates, updates, deletes, moves or chmods several files (GitLab's
// POST repository/commits with actions, doc/api/commits.md). Each action's fields are checked here
// first — what GitLab requires per action (lib/api/commits.rb: previous_path for move, content for
// update), paths without `.`/`..` parts (D31), a path named once — so a mistake in the fifth file
// is reported, naming it, before anything is sent.
import { Type } from '@sinclair/typebox';
import { fillPath, identifierProblem } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument } from '../errors';
import { filePath, LIMITS, projectId, refName, shortName } from '../params';
import { writeFailure } from './write-failures';
import { base64Problem, COMMIT_CONTENT_LIMIT, commitMessage, encoding, fileContent, sha } from './write-file';

const COMMITS = '/projects/{project_id}/repository/commits';

/** Actions one commit may carry. */
export const MAX_ACTIONS = LIMITS.listItems;

const action = Type.Object(
  {
    action: Type.Optional(Type.Union(['create', 'update', 'delete', 'move', 'chmod'].map((a) => Type.Literal(a)))),
    file_path: filePath(),
    previous_path: Type.Optional(filePath()),
    content: Type.Optional(fileContent()),
    encoding: encoding(),
    last_commit_id: Type.Optional(sha()),
    execute_filemode: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

type Action = {
  action?: string;
  file_path: string;
  previous_path?: string;
  content?: string;
  encoding?: string;
  last_commit_id?: string;
  execute_filemode?: boolean;
};

/** Refuses the first action that GitLab would refuse, or that could only be a mistake; names it as files[i].field. */
export function checkActions(files: readonly Action[]): void {
  const seen = new Map<string, number>();
  let total = 0;
  files.forEach((f, i) => {
    const at = (field: string) => `files[${i}].${field}`;
    const kind = f.action ?? 'create';
    for (const field of ['file_path', 'previous_path'] as const) {
      const value = f[field];
      const problem = value === undefined ? undefined : identifierProblem(value);
      if (problem) throw invalidArgument(at(field), problem);
    }
    if (kind === 'move') {
      if (f.previous_path === undefined) throw invalidArgument(at('previous_path'), 'is required when action is move (the path the file moves from)');
      if (f.previous_path === f.file_path) throw invalidArgument(at('previous_path'), 'must differ from file_path');
    } else if (f.previous_path !== undefined) {
      throw invalidArgument(at('previous_path'), `is only for action move (this action is ${kind})`);
    }
    if ((kind === 'create' || kind === 'update') && f.content === undefined) {
      throw invalidArgument(at('content'), `is required when action is ${kind} (use "" for an empty file)`);
    }
    if ((kind === 'delete' || kind === 'chmod') && (f.content !== undefined || f.encoding !== undefined)) {
      throw invalidArgument(at(f.content !== undefined ? 'content' : 'encoding'), `is not used by action ${kind}; leave it out`);
    }
    if (kind === 'chmod' && f.execute_filemode === undefined) throw invalidArgument(at('execute_filemode'), 'is required when action is chmod');
    if (kind === 'create' && f.last_commit_id !== undefined)
      throw invalidArgument(at('last_commit_id'), 'guards changes to an existing file; a create has none');
    // GitLab checks last_commit_id on update, move and delete only (Files::MultiService): on a chmod it
    // would commit whatever the file became, so no guard is promised there.
    if (kind === 'chmod' && f.last_commit_id !== undefined) {
      throw invalidArgument(
        at('last_commit_id'),
        'GitLab ignores it on a chmod (it checks update, move and delete only), so it would not guard this action; leave it out',
      );
    }
    if (f.encoding === 'base64' && f.content !== undefined) {
      const problem = base64Problem(f.content);
      if (problem) throw invalidArgument(at('content'), problem);
    }
    total += f.content?.length ?? 0;
    if (total > COMMIT_CONTENT_LIMIT)
      throw invalidArgument(at('content'), `brings the commit's content past ${COMMIT_CONTENT_LIMIT} characters; split it into several commits`);
    for (const path of [f.file_path, f.previous_path]) {
      if (path === undefined) continue;
      const before = seen.get(path);
      if (before !== undefined)
        throw invalidArgument(at(path === f.file_path ? 'file_path' : 'previous_path'), `${path} is already changed by files[${before}]; one action per path`);
      seen.set(path, i);
    }
  });
}

export const pushFiles = defineTool({
  name: 'push_files',
  title: 'Commit several files',
  description:
    'One commit on branch with several file actions: create (default), update, delete, move (previous_path; content optional) or chmod ' +
    '(execute_filemode). last_commit_id on an update, move or delete fails the commit with conflict if that file changed since read.',
  group: 'repository',
  mode: 'write',
  destructive: true,
  record: 'commit',
  closingText: (args) => [args.commit_message],
  endpoint: `POST ${COMMITS}`,
  input: Type.Object(
    {
      project_id: projectId(),
      branch: refName('Branch to commit to'),
      commit_message: commitMessage(),
      files: Type.Array(action, { minItems: 1, maxItems: MAX_ACTIONS, description: `File actions, at most ${MAX_ACTIONS}` }),
      start_branch: Type.Optional(refName('Create branch from this one')),
      author_email: Type.Optional(shortName()),
      author_name: Type.Optional(shortName()),
    },
    { additionalProperties: false },
  ),
  check(args) {
    checkActions(args.files);
  },
  async handler(args, { forge }) {
    const { project_id: _p, files, ...rest } = args;
    const actions = files.map((f) => ({ ...f, action: f.action ?? 'create' }));
    try {
      return await forge.json({ method: 'POST', path: fillPath(COMMITS, args), body: { ...rest, actions } });
    } catch (error) {
      throw writeFailure(error);
    }
  },
});
