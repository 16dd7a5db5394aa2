// CI/CD variables of project 42 and group acme/platform: one of each kind an agent meets — plain,
// masked, hidden, file, and one key in two environment scopes (so a lookup without a filter is 409).
import type { ForgeModel } from './model';
import { variablesOf, type CiVariable } from './model-variables';

const variable = (o: Pick<CiVariable, 'key' | 'value'> & Partial<CiVariable>): CiVariable => ({
  variable_type: 'env_var',
  protected: false,
  masked: false,
  hidden: false,
  raw: false,
  environment_scope: '*',
  description: null,
  ...o,
});

export const VARIABLE_SEED = {
  /** Values tests look for in every result, log line and audit line. */
  plainValue: 'plain-value-not-secret-1',
  maskedValue: 'MaskedSecretValue42',
  hiddenValue: 'HiddenSecretValue42',
  fileValue: '-----BEGIN KEY-----\nfile-secret-body\n-----END KEY-----\n',
  groupValue: 'GroupMaskedValue77',
  /** DATABASE_URL exists in scopes `production` and `staging`. */
  scopedKey: 'DATABASE_URL',
} as const;

export function seedVariables(m: ForgeModel): void {
  const api = m.projects.get(42)!;
  variablesOf(api).push(
    variable({ key: 'LOG_LEVEL', value: VARIABLE_SEED.plainValue, description: 'How chatty the jobs are' }),
    variable({ key: 'DEPLOY_TOKEN', value: VARIABLE_SEED.maskedValue, masked: true, protected: true }),
    variable({ key: 'SIGNING_KEY', value: VARIABLE_SEED.hiddenValue, masked: true, hidden: true }),
    variable({ key: 'TLS_KEY', value: VARIABLE_SEED.fileValue, variable_type: 'file', protected: true }),
    variable({ key: VARIABLE_SEED.scopedKey, value: 'postgres://prod-db/app', environment_scope: 'production' }),
    variable({ key: VARIABLE_SEED.scopedKey, value: 'postgres://staging-db/app', environment_scope: 'staging' }),
  );
  variablesOf(m.groups.get(7)!).push(variable({ key: 'REGISTRY_PASSWORD', value: VARIABLE_SEED.groupValue, masked: true }));
}
