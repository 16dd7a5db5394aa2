// CI/CD inputs of a new pipeline, checked against the configuration's `spec:inputs` as GitLab checks
// them while it creates the pipeline: inputs given to a configuration without a header, names it does
// not declare (Ci::Inputs::Builder), then each declared input's presence, type and options
// (lib/ci/inputs/base_input.rb and the string, number, boolean and array inputs). GitLab reports at
// most three of these messages, joined (Gitlab::Ci::Config::Yaml::Interpolator#error_message).
import type { InputSpec } from '../model-ci';

export type InputsOutcome = { values: Record<string, unknown> } | { error: string };

const NOT_A: Record<InputSpec['type'], string> = { string: 'a string', number: 'a number', boolean: 'a boolean', array: 'an array' };

function typeOk(spec: InputSpec, value: unknown): boolean {
  if (spec.type === 'array') return Array.isArray(value);
  return typeof value === spec.type;
}

/** The values a pipeline runs with (defaults filled in), or GitLab's message. */
export function resolveInputs(specs: Record<string, InputSpec> | null, given: Record<string, unknown>): InputsOutcome {
  const names = Object.keys(given);
  if (specs === null) {
    return names.length > 0 ? { error: 'Given inputs not defined in the `spec` section of the included configuration file' } : { values: {} };
  }
  const errors: string[] = [];
  const unknown = names.filter((name) => !Object.hasOwn(specs, name));
  if (unknown.length > 0) errors.push(`unknown input arguments: ${unknown.join(', ')}`);
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const provided = given[name] !== undefined && given[name] !== null;
    if (!provided && !('default' in spec)) {
      errors.push(`\`${name}\` input: required value has not been provided`);
      continue;
    }
    const value = provided ? given[name] : spec.default;
    if (!typeOk(spec, value)) errors.push(`\`${name}\` input: ${provided ? 'provided' : 'default'} value is not ${NOT_A[spec.type]}`);
    else if (spec.options && !spec.options.includes(value)) {
      errors.push(
        `\`${name}\` input: \`${String(value)}\` cannot be used because it is not in the list of ${spec.type === 'number' ? 'the ' : ''}allowed options`,
      );
    } else values[name] = value;
  }
  return errors.length > 0 ? { error: errors.slice(0, 3).join(', ') } : { values };
}
