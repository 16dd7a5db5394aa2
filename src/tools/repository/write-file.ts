// create_or_update_file: one file written in one commit through GitLab's files API. GitLab has a
// verb for each (POST creates and refuses an existing file, PUT updates and refuses a missing one,
// doc/api/repository_files.md), so the tool creates, and updates only when GitLab says the file is
// there; with last_commit_id it updates directly and GitLab refuses if the file changed since.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument, ToolError } from '../errors';
import { filePath, projectId, refName, shortName } from '../params';
import { writeFailure } from './write-failures';
import { fields, S, STRINGS } from '../lean/schema-parts';

/**
 * Characters of one file's content, and of all files of one commit: within the default /mcp body
 * limit (MAX_REQUEST_BODY_BYTES, 4 MiB), so the server, not the transport, names the limit.
 */
export const CONTENT_LIMIT = 1_000_000;
export const COMMIT_CONTENT_LIMIT = 3_000_000;
const FILE = '/projects/{project_id}/repository/files/{file_path}';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Content declared base64 must be base64, or GitLab would commit what its decoder makes of it. */
export function base64Problem(content: string): string | undefined {
  const compact = content.replace(/\s+/g, '');
  return compact.length % 4 === 0 && BASE64.test(compact) ? undefined : 'is not valid base64 (encoding is base64)';
}

export const fileContent = () => Type.String({ maxLength: CONTENT_LIMIT });
export const encoding = () => Type.Optional(Type.Union([Type.Literal('text'), Type.Literal('base64')], { description: 'base64 for binary content' }));
export const commitMessage = () => Type.String({ minLength: 1, maxLength: 1_000_000 });
// GitLab compares last_commit_id with the file's last commit SHA as strings (Files::BaseService),
// so a short or upper-case SHA would always read as "the file changed": only the full SHA, as read.
export const sha = () =>
  Type.String({
    pattern: '^([0-9a-f]{40}|[0-9a-f]{64})$',
    maxLength: 64,
    hint: "must be a commit SHA: the file's full last_commit_id from get_file_contents (40 or 64 lower-case hex characters)",
    description: 'From get_file_contents: conflict if the file changed since',
  });

export const createOrUpdateFile = defineTool({
  name: 'create_or_update_file',
  title: 'Create or update file',
  description: 'Write one file on branch in one commit: created if absent, else replaced.',
  group: 'repository',
  mode: 'write',
  closingText: (args) => [args.commit_message],
  endpoint: `POST/PUT ${FILE}`,
  output: fields({ file_path: S, branch: S, action: S, closes_issues: STRINGS }),
  input: Type.Object(
    {
      project_id: projectId(),
      file_path: filePath(),
      branch: refName('Branch to commit to'),
      content: fileContent(),
      commit_message: commitMessage(),
      encoding: encoding(),
      last_commit_id: Type.Optional(sha()),
      start_branch: Type.Optional(refName('Create branch from this one')),
      execute_filemode: Type.Optional(Type.Boolean({ description: 'Executable bit' })),
      author_email: Type.Optional(shortName()),
      author_name: Type.Optional(shortName()),
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.encoding === 'base64') {
      const problem = base64Problem(args.content);
      if (problem) throw invalidArgument('content', problem);
    }
  },
  async handler(args, { forge }) {
    const { project_id: _p, file_path: _f, last_commit_id, ...body } = args;
    const path = fillPath(FILE, args);
    const update = async () => {
      await forge.json({ method: 'PUT', path, body: last_commit_id === undefined ? body : { ...body, last_commit_id } });
      return { file_path: args.file_path, branch: args.branch, action: 'updated' };
    };
    try {
      if (last_commit_id !== undefined) return await update();
      try {
        await forge.json({ method: 'POST', path, body });
        return { file_path: args.file_path, branch: args.branch, action: 'created' };
      } catch (error) {
        // Files::CreateService refuses an existing file with 400 "A file with this name already exists".
        if (error instanceof ToolError && error.status === 400 && /file with this name already exists/i.test(error.message)) return await update();
        throw error;
      }
    } catch (error) {
      throw writeFailure(error);
    }
  },
});
