// The repository group: read files and trees, compare refs, write files in commits.
import { getBranchDiffs } from './compare';
import { getFileContents } from './file-contents';
import { pushFiles } from './push-files';
import { getRepositoryTree } from './tree';
import { createOrUpdateFile } from './write-file';

export const repositoryTools = [getFileContents, getRepositoryTree, getBranchDiffs, createOrUpdateFile, pushFiles];
