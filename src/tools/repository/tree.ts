// get_repository_tree: the files and directories under a path, one page at a time.
import { Type } from '@sinclair/typebox';
import { filePath, pagination, projectId, refName } from '../params';
import { restTool } from '../rest';

export const getRepositoryTree = restTool({
  name: 'get_repository_tree',
  title: 'Get repository tree',
  description: 'List files (blob) and directories (tree) at ref, directories first.',
  group: 'repository',
  mode: 'read',
  record: 'tree_entry',
  input: Type.Object(
    {
      project_id: projectId(),
      path: Type.Optional(filePath('Directory; default: root')),
      ref: Type.Optional(refName('Default: the default branch')),
      recursive: Type.Optional(Type.Boolean({ description: 'Every descendant' })),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  rest: { method: 'GET', path: '/projects/{project_id}/repository/tree', list: true },
});
