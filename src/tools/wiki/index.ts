// The wiki group (opt-in, D13): project wiki tools, then group wiki tools (Premium).
import { GROUP_WIKI, PROJECT_WIKI } from './scope';
import { wikiTools } from './wiki';

const project = wikiTools(PROJECT_WIKI);
const group = wikiTools(GROUP_WIKI);

export const wikiGroupTools = [
  project.list,
  project.get,
  project.create,
  project.update,
  project.delete,
  group.list,
  group.get,
  group.create,
  group.update,
  group.delete,
];
