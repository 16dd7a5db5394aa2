// Tool failures (D17): the kinds and ToolError come from forge/errors.ts, the lowest
// layer that throws them; tools add the argument refusal that names the parameter.
import { ToolError } from '../forge/errors';

export { ToolError, type ErrorKind } from '../forge/errors';

/** A tool argument problem: names the parameter, and no upstream request was made. */
export function invalidArgument(parameter: string, problem: string): ToolError {
  return new ToolError('validation', `${parameter}: ${problem}`);
}
