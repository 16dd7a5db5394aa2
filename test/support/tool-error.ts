// The ToolError a promise rejects with (forge client tests); any other outcome fails the test.
import { ToolError } from '../../src/forge/errors';

export async function failure(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error('expected a ToolError');
}
