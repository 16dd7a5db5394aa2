// CI/CD variables of the fake forge, kept beside each project and group (a WeakMap, so reset()
// starts clean). The stored shape is what GitLab presents (lib/api/entities/ci/variable.rb).
import type { Group, Project } from './model';

export interface CiVariable {
  key: string;
  value: string;
  variable_type: 'env_var' | 'file';
  protected: boolean;
  masked: boolean;
  /** masked_and_hidden at creation (GitLab 17.4): the value is never shown again. */
  hidden: boolean;
  raw: boolean;
  environment_scope: string;
  description: string | null;
}

const store = new WeakMap<Project | Group, CiVariable[]>();

export function variablesOf(owner: Project | Group): CiVariable[] {
  let list = store.get(owner);
  if (!list) store.set(owner, (list = []));
  return list;
}
