// get_repository_tree: the files and directories under a path, one page at a time.
import { Type } from '@sinclair/typebox';
import { filePath, pagination, projectId, refName } from '../params';
import { restTool } from '../rest';

export const getRepositoryTree = restTool({
  name: 'get_repository_tree',
  title: 'Get repository tree',
  description: 'List files (blob) and directories (tree) under path (default: root) at ref, directories first; recursive: every descendant.',
  group: 'repository',
  mode: 'read',
  record: 'tree_entry',
  input: Type.Object(
    { project_id: projectId(), path: Type.Optional(filePath()), ref: Type.Optional(refName()), recursive: Type.Optional(Type.Boolean()), ...pagination },
    { additionalProperties: false },
  ),
  rest: { method: 'GET', path: '/projects/{project_id}/repository/tree', list: true },
});
