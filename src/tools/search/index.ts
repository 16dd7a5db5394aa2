// The search group (opt-in, D13): GitLab's search API, and code search as agents use it most.
import { searchCode } from './code';
import { searchTool } from './search';

export const searchGroupTools = [searchTool, searchCode];
